import { passkey } from '@better-auth/passkey'
import { deleteSessionCookie } from 'better-auth/cookies'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { randomBytes } from 'node:crypto'
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api'
import { genericOAuth, jwt, twoFactor } from 'better-auth/plugins'
import { MAX_NAME_LENGTH, profileNameSchema, updateUserInputSchema } from '../../shared/contracts/account'
import { loginSchema, signupCredentialsSchema } from '../../shared/contracts/auth'
import { paths } from '../../shared/paths'
import type { Db } from '../db/client'
import * as schema from '../db/schema'
import { recordSecurityEvent } from '../features/security-log/security-log.service'
import type { SecurityEventType } from '../../shared/contracts/security-log'
import { deleteUnconfirmedAccount } from './auth.queries'
import type { Env } from '../env'
import type { GoogleConfig } from '../features/google/google-config'
import type { Mailer } from '../features/mail/mailer'
import type { Logger } from '../lib/logger'
import { generateBackupCodes } from './backup-codes'
import { hashPassword, verifyPassword } from './password'
import type { SessionCache } from './session-cache'
import { claimAttempt, clearFailures, tooManyAttemptsMessage } from './throttle'

/** Remembers the account this browser last signed in to, so its attempts have their own counter. */
const KNOWN_DEVICE_COOKIE = 'mailrow.known_device'
const KNOWN_DEVICE_MAX_AGE = 60 * 60 * 24 * 365
const TWO_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code'])
/** Endpoints that can end in a new session (Google's callback is /callback/:id). */
const SIGN_IN_PATHS = new Set(['/sign-in/email', '/passkey/verify-authentication', '/verify-email', ...TWO_FACTOR_PATHS])

/**
 * Better Auth endpoints that neither end a session nor change a user: the only ones that leave the
 * session cache alone (any other, including ones a future version adds, invalidates it).
 */
const KEEPS_CACHED_SESSIONS = new Set([
  '/get-session',
  '/list-sessions',
  '/sign-in/email',
  '/sign-up/email',
  '/request-password-reset',
  '/send-verification-email',
  '/passkey/generate-authenticate-options',
  '/passkey/verify-authentication',
  '/token',
  '/jwks',
  '/ok',
  '/error',
])

/** The session cookie's name (the cache key's cookie): Better Auth's, with our prefix. */
export function sessionCookieName(appUrl: string) {
  return `${new URL(appUrl).protocol === 'https:' ? '__Secure-' : ''}mailrow.session_token`
}

/** The request header carrying the caller's IP, set by the app from the socket (never the client). */
export const CLIENT_IP_HEADER = 'x-mailrow-client-ip'

export type AuthRateLimits = {
  /** Requests per window (seconds) for the sign-in, sign-up and other sensitive endpoints. */
  signIn: { window: number; max: number }
  signUp: { window: number; max: number }
  twoFactor: { window: number; max: number }
  passwordReset: { window: number; max: number }
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  signIn: { window: 60, max: 10 },
  signUp: { window: 600, max: 10 },
  twoFactor: { window: 60, max: 10 },
  passwordReset: { window: 600, max: 5 },
}

export type AuthDeps = {
  db: Db
  env: Pick<Env, 'APP_URL'>
  /** Google (real or the emulator) for 'Sign in with Google'; absent turns that button off. */
  google?: GoogleConfig
  secret: string
  mailer: Mailer
  logger: Logger
  rateLimits?: AuthRateLimits
  /** Forgotten entries on every endpoint that may end a session or change a user. */
  sessionCache?: SessionCache
}

export function createAuth({ db, env, google, secret, mailer, logger, rateLimits = DEFAULT_AUTH_RATE_LIMITS, sessionCache }: AuthDeps) {
  const appUrl = new URL(env.APP_URL)

  /**
   * The throttle key for this account: its own counter for a browser that signed in to it
   * before, so an attacker's failures elsewhere never slow the owner's known device.
   */
  async function deviceScopedKey(ctx: AuthHookContext, email: string): Promise<string> {
    const device = await ctx.getSignedCookie(KNOWN_DEVICE_COOKIE, secret)
    const [deviceEmail, deviceId] = typeof device === 'string' ? device.split('|') : []
    return deviceEmail === email && deviceId ? `${email}:device:${deviceId}` : email
  }

  async function rememberDevice(ctx: AuthHookContext, email: string) {
    const device = await ctx.getSignedCookie(KNOWN_DEVICE_COOKIE, secret)
    const [deviceEmail, deviceId] = typeof device === 'string' ? device.split('|') : []
    if (deviceEmail === email && deviceId) return
    await ctx.setSignedCookie(KNOWN_DEVICE_COOKIE, `${email}|${randomBytes(16).toString('base64url')}`, secret, {
      maxAge: KNOWN_DEVICE_MAX_AGE,
      httpOnly: true,
      sameSite: 'lax',
      secure: appUrl.protocol === 'https:',
      path: '/',
    })
  }

  /** Adds to the user's security log, with the caller's address and browser. */
  async function logEvent(ctx: AuthHookContext | null | undefined, user: { id: string; email: string }, type: SecurityEventType) {
    await recordSecurityEvent(db, mailer, {
      userId: user.id,
      email: user.email,
      type,
      ip: ctx?.headers?.get(CLIENT_IP_HEADER) ?? null,
      userAgent: ctx?.headers?.get('user-agent') ?? null,
    })
  }

  /** Who a second-factor attempt is for: the signed-in user (enrolment) or the pending sign-in. */
  async function twoFactorUser(ctx: AuthHookContext) {
    const session = await getSessionFromCtx(ctx)
    if (session) return session.user
    const pending = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret)
    if (!pending) return undefined
    const verification = await ctx.context.internalAdapter.findVerificationValue(pending)
    return verification ? ((await ctx.context.internalAdapter.findUserById(verification.value)) ?? undefined) : undefined
  }

  return betterAuth({
    appName: 'Mailrow',
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [appUrl.origin],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.users,
        session: schema.sessions,
        account: schema.accounts,
        verification: schema.verifications,
        twoFactor: schema.twoFactors,
        passkey: schema.passkeys,
        jwks: schema.jwks,
        rateLimit: schema.rateLimits,
      },
    }),
    user: {
      additionalFields: {
        // Read-only for the user: a plan only changes through billing, never through sign-up input.
        plan: { type: 'string', required: false, defaultValue: 'free', input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // Spec §4: after sign-up the user signs in. With auto sign-in off, Better Auth also answers a
      // sign-up for a taken address exactly like a new one, so the form leaks no accounts.
      autoSignIn: false,
      // Only a confirmed owner of the address signs in with a password (and so a squatter's
      // unconfirmed account can be replaced by the owner's Google sign-in).
      requireEmailVerification: true,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await mailer.send({
          to: user.email,
          subject: 'Reset your Mailrow password',
          text: `Someone asked to reset the password of your Mailrow account.\n\nChoose a new password here (the link works for one hour):\n${url}\n\nIf it wasn't you, ignore this email; your password stays as it is.`,
        })
      },
      async onExistingUserSignUp({ user }) {
        await mailer.send({
          to: user.email,
          subject: 'Someone tried to create a Mailrow account with your email',
          text: `Someone tried to sign up for Mailrow with ${user.email}, which already has an account.\n\nIf it was you, sign in at ${env.APP_URL}/login or reset your password there.\nIf it wasn't, you can ignore this email.`,
        })
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Signing in to an unconfirmed account mails a fresh link.
      sendOnSignIn: true,
      // The link signs the user in and lands on the dashboard (spec §7 emailRedirectTo).
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        // Every link lands on the dashboard (a sign-in to an unconfirmed account sends one too,
        // and a callbackURL there would make the sign-in answer a redirect).
        const link = new URL(url)
        link.searchParams.set('callbackURL', paths.dashboard)
        await mailer.send({
          to: user.email,
          subject: 'Confirm your Mailrow email address',
          text: `Welcome to Mailrow!\n\nConfirm that ${user.email} is your address to finish creating your account (the link works for 24 hours):\n${link}\n\nIf you didn't sign up for Mailrow, ignore this email: no account is created without this confirmation.`,
        })
      },
    },
    account: {
      // A Google account whose verified email matches a confirmed user signs in as that user.
      accountLinking: { enabled: true, trustedProviders: ['google'] },
    },
    databaseHooks: {
      user: {
        // Names from Google profiles obey the same limit as typed ones.
        create: { before: async (user) => ({ data: { ...user, name: clampName(user.name) } }) },
        update: {
          before: async (user) => ({ data: user.name === undefined ? user : { ...user, name: clampName(user.name) } }),
          async after(user, ctx) {
            if (ctx?.path === '/two-factor/verify-totp' && user.twoFactorEnabled) await logEvent(ctx, user, 'two_factor_enabled')
            if (ctx?.path === '/two-factor/disable' && !user.twoFactorEnabled) await logEvent(ctx, user, 'two_factor_disabled')
          },
        },
      },
      account: {
        update: {
          async after(account, ctx) {
            const type = ctx?.path === '/change-password' ? 'password_changed' : ctx?.path === '/reset-password' ? 'password_reset' : null
            if (!type || account.providerId !== 'credential' || !ctx) return
            const user = await ctx.context.internalAdapter.findUserById(account.userId)
            if (user) await logEvent(ctx, user, type)
          },
        },
      },
    },
    session: {
      // httpOnly cookie sessions kept in the database; used sessions slide forward daily.
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/email': rateLimits.signIn,
        '/sign-up/email': rateLimits.signUp,
        '/two-factor/verify-totp': rateLimits.twoFactor,
        '/two-factor/verify-backup-code': rateLimits.twoFactor,
        '/request-password-reset': rateLimits.passwordReset,
        '/reset-password': rateLimits.passwordReset,
      },
    },
    advanced: {
      cookiePrefix: 'mailrow',
      useSecureCookies: appUrl.protocol === 'https:',
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
    },
    logger: {
      log(level, message, ...args) {
        logger[level]({ args }, `auth: ${message}`)
      },
    },
    telemetry: { enabled: false },
    hooks: {
      // The forms' zod schemas are the server's rules too: what the form rejects, the API rejects.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-up/email') {
          const result = signupCredentialsSchema.safeParse(ctx.body)
          if (!result.success) throw new APIError('BAD_REQUEST', { message: result.error.issues[0]?.message })
          const name = ctx.body?.name ? profileNameSchema.safeParse(ctx.body.name) : undefined
          if (name && !name.success) throw new APIError('BAD_REQUEST', { message: name.error.issues[0]?.message })
          return {
            context: {
              body: { ...ctx.body, ...result.data, name: name?.data ?? result.data.email.split('@')[0]!.slice(0, MAX_NAME_LENGTH), callbackURL: paths.dashboard },
            },
          }
        }
        if (ctx.path === '/send-verification-email') {
          const email = loginSchema.shape.email.safeParse(ctx.body?.email)
          if (!email.success) throw new APIError('BAD_REQUEST', { message: email.error.issues[0]?.message })
          return { context: { body: { email: email.data, callbackURL: paths.dashboard } } }
        }
        if (ctx.path === '/reset-password' || ctx.path === '/change-password') {
          // A new password follows the sign-up rules wherever it is chosen.
          const result = signupCredentialsSchema.shape.password.safeParse(ctx.body?.newPassword)
          if (!result.success) throw new APIError('BAD_REQUEST', { message: result.error.issues[0]?.message })
          // Changing the password ends every other session, whatever the client asked for.
          if (ctx.path === '/change-password') return { context: { body: { ...ctx.body, revokeOtherSessions: true } } }
        }
        if (ctx.path === '/update-user') {
          const result = updateUserInputSchema.safeParse(ctx.body)
          if (!result.success) throw new APIError('BAD_REQUEST', { message: result.error.issues[0]?.message })
          return { context: { body: result.data } }
        }
        if (ctx.path === '/sign-in/email') {
          const result = loginSchema.safeParse(ctx.body)
          if (!result.success) throw new APIError('BAD_REQUEST', { message: result.error.issues[0]?.message })
          await claimOrRefuse(db, `sign-in:${await deviceScopedKey(ctx, result.data.email)}`)
          return { context: { body: { ...ctx.body, ...result.data } } }
        }
        if (TWO_FACTOR_PATHS.has(ctx.path)) {
          const user = await twoFactorUser(ctx)
          if (user) await claimOrRefuse(db, `2fa:${await deviceScopedKey(ctx, user.email)}`)
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (sessionCache && !KEEPS_CACHED_SESSIONS.has(ctx.path)) forgetCachedSessions(sessionCache, ctx)
        const failed = isAPIError(ctx.context.returned)
        if (ctx.path === '/sign-in/email' && !failed) {
          const email = loginSchema.shape.email.safeParse(ctx.body?.email).data ?? ''
          await clearFailures(db, `sign-in:${await deviceScopedKey(ctx, email)}`)
          await rememberDevice(ctx, email)
        }
        if (TWO_FACTOR_PATHS.has(ctx.path) && !failed) {
          const user = ctx.context.newSession?.user ?? (await getSessionFromCtx(ctx))?.user
          if (user) await clearFailures(db, `2fa:${await deviceScopedKey(ctx, user.email)}`)
        }
        // Better Auth's two-factor plugin only steps in after a password; a Google sign-in must
        // not be a way around the second factor.
        if (ctx.path.startsWith('/callback/') && ctx.context.newSession?.user.twoFactorEnabled) {
          await replaceSessionWithTwoFactorChallenge(ctx)
          throw ctx.redirect(`${env.APP_URL}${paths.twoFactor}`)
        }
        const newSession = ctx.context.newSession
        const isTwoFactorPending = Boolean((ctx.context.returned as { twoFactorRedirect?: boolean } | undefined)?.twoFactorRedirect)
        if ((SIGN_IN_PATHS.has(ctx.path) || ctx.path.startsWith('/callback/')) && newSession && !isTwoFactorPending) {
          await logEvent(ctx, newSession.user, 'sign_in')
        }
        if (ctx.path === '/sign-in/email' && failed) {
          const email = loginSchema.shape.email.safeParse(ctx.body?.email).data
          const found = email ? await ctx.context.internalAdapter.findUserByEmail(email) : null
          if (found && (ctx.context.returned as APIError).statusCode === 401) await logEvent(ctx, found.user, 'sign_in_failed')
        }
        if (TWO_FACTOR_PATHS.has(ctx.path) && failed && (ctx.context.returned as APIError).statusCode === 401) {
          const user = await twoFactorUser(ctx)
          if (user) await logEvent(ctx, user, 'sign_in_failed')
        }
      }),
    },
    plugins: [
      // Accounts without a password (Google-only) enable 2FA from their session alone.
      // Backup codes without look-alike characters (the key is base32: A-Z and 2-7 already).
      twoFactor({ issuer: 'Mailrow', allowPasswordless: true, backupCodeOptions: { customBackupCodesGenerate: generateBackupCodes } }),
      passkey({ rpID: appUrl.hostname, rpName: 'Mailrow', origin: appUrl.origin }),
      jwt({ jwks: { keyPairConfig: { alg: 'EdDSA', crv: 'Ed25519' } } }),
      // Google through configurable endpoints, so the same code signs in with Google or the emulator.
      ...(google ? [genericOAuth({ config: [googleSignInProvider(google, db)] })] : []),
    ],
  })
}

/** A profile name from outside (Google): control characters out, at most MAX_NAME_LENGTH. */
function clampName(name: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = typeof name === 'string' ? name.replace(/[\u0000-\u001f\u007f]/g, '').trim() : ''
  return [...clean].slice(0, MAX_NAME_LENGTH).join('')
}

type AuthHookContext = Parameters<typeof getSessionFromCtx>[0]

/**
 * After an endpoint that may have ended sessions or changed a user: the caller's user when the
 * endpoint knew it, this cookie's entry on sign-out, and otherwise (a password reset by link, a
 * deletion confirmed by link) everything, since the user is not known here.
 */
function forgetCachedSessions(cache: SessionCache, ctx: AuthHookContext) {
  if (ctx.path === '/sign-out' && ctx.headers) return cache.forgetKey(cache.keyOf(ctx.headers))
  const userIds = [ctx.context.session?.user.id, ctx.context.newSession?.user.id].filter((id): id is string => Boolean(id))
  if (userIds.length === 0) return cache.clear()
  for (const id of userIds) cache.forgetUser(id)
}

const TWO_FACTOR_CHALLENGE_SECONDS = 600

/** What Better Auth's two-factor plugin does after a password: no session yet, a 2FA cookie instead. */
async function replaceSessionWithTwoFactorChallenge(ctx: AuthHookContext) {
  const data = ctx.context.newSession
  if (!data) return
  deleteSessionCookie(ctx, true)
  await ctx.context.internalAdapter.deleteSession(data.session.token)
  ctx.context.setNewSession(null)
  const identifier = `2fa-${randomBytes(15).toString('base64url')}`
  const expiresAt = new Date(Date.now() + TWO_FACTOR_CHALLENGE_SECONDS * 1000)
  await ctx.context.internalAdapter.createVerificationValue({ value: data.user.id, identifier, expiresAt })
  await ctx.context.internalAdapter.createVerificationValue({ value: '0', identifier: `2fa-attempts-${identifier}`, expiresAt })
  const cookie = ctx.context.createAuthCookie('two_factor', { maxAge: TWO_FACTOR_CHALLENGE_SECONDS })
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes)
}

/** Counts the attempt, or refuses it with 429 and Retry-After while the account's delay runs. */
async function claimOrRefuse(db: Db, key: string) {
  const claim = await claimAttempt(db, key)
  if (!claim.allowed) {
    throw new APIError('TOO_MANY_REQUESTS', { message: tooManyAttemptsMessage(claim.retryAfterSeconds) }, { 'Retry-After': String(claim.retryAfterSeconds) })
  }
}

export type Auth = ReturnType<typeof createAuth>
export type AuthSession = Auth['$Infer']['Session']

/** 'Sign in with Google' (spec §7): OpenID Connect with PKCE; callback /api/auth/callback/google. */
function googleSignInProvider(google: GoogleConfig, db: Db) {
  return {
    /**
     * Google vouches for the address. An unconfirmed account on it was made by someone who could
     * not read its mail (or by the owner, who never confirmed it): it gives way to the owner.
     */
    async getUserInfo(tokens: { accessToken?: string }) {
      const response = await fetch(google.endpoints.userInfoUrl, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
      if (!response.ok) return null
      const profile = (await response.json()) as { sub?: string; email?: string; email_verified?: boolean | string; name?: string; picture?: string }
      if (!profile.sub || !profile.email) return null
      const emailVerified = profile.email_verified === true || profile.email_verified === 'true'
      if (emailVerified) await deleteUnconfirmedAccount(db, profile.email.toLowerCase())
      return { id: profile.sub, email: profile.email, emailVerified, name: profile.name ?? '', image: profile.picture }
    },
    providerId: 'google',
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    authorizationUrl: google.endpoints.authUrl,
    tokenUrl: google.endpoints.tokenUrl,
    userInfoUrl: google.endpoints.userInfoUrl,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    prompt: 'select_account' as const,
  }
}
