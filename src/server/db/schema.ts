import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { RowMode } from '../../shared/contracts/parsers'
import type { WebhookEventType } from '../../shared/contracts/webhooks'
import type { ParserType, Plan } from '../../shared/plans'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date())

// ── Accounts (Better Auth tables; property names are the ones Better Auth expects) ──

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /** free | starter | pro; anything else reads as free (toPlan). Never writable by the user. */
  plan: text('plan').$type<Plan>().notNull().default('free'),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** Notifications up to this time have been seen (kept here, not per browser: issue 12). */
  notificationsSeenAt: timestamp('notifications_seen_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
)

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
)

export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factors_user_id_idx').on(t.userId), index('two_factors_secret_idx').on(t.secret)],
)

export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    aaguid: text('aaguid'),
    createdAt: timestamp('created_at', { withTimezone: true }),
  },
  (t) => [
    index('passkeys_user_id_idx').on(t.userId),
    index('passkeys_credential_id_idx').on(t.credentialID),
  ],
)

export const jwks = pgTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  alg: text('alg'),
  crv: text('crv'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
})

/** Better Auth's rate-limit counters, kept in the database so every server instance shares them. */
export const rateLimits = pgTable('rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
})

/**
 * Failed attempts per account (sign-in, second factor, account deletion), for the progressive
 * delay in auth/throttle.ts. Keys name the account (and the known device, when there is one).
 */
export const authThrottles = pgTable('auth_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
})

/** What happened to an account, shown in Settings for 90 days (sign-ins, changes, sessions). */
export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('security_events_user_created_idx').on(t.userId, t.createdAt)],
)

// ── Product tables (spec §3) ──

/** One highlighted value from the training sample (spec §3 extraction_fields). */
export type ExtractionField = {
  name: string
  value: string
  /** Text around the highlight, so the engine can tell repeated values apart. */
  context?: { before?: string; after?: string; occurrence?: number }
  type?: 'text' | 'number' | 'money' | 'date' | 'email'
}

/** Where rows go (spec §3 destination_config). */
export type DestinationConfig = {
  type: 'new' | 'existing'
  spreadsheetId: string
  spreadsheetUrl: string
  spreadsheetName?: string
  parseHistorical: boolean
}

export const parsers = pgTable(
  'parsers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    /** When the parser was paused (null while active): Resume asks what to do with mail since then (decision 024). */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    filterFrom: text('filter_from'),
    filterSubject: text('filter_subject'),
    filterLabel: text('filter_label'),
    extractionFields: jsonb('extraction_fields').$type<ExtractionField[]>().notNull().default([]),
    destinationType: text('destination_type').$type<'google_sheets'>().notNull().default('google_sheets'),
    destinationConfig: jsonb('destination_config').$type<DestinationConfig>(),
    parserType: text('parser_type').$type<ParserType>().notNull().default('template'),
    parseAttachments: boolean('parse_attachments').notNull().default(false),
    /** per_email: one sheet row per email (line items joined); per_item: one row per line item. */
    rowMode: text('row_mode').$type<RowMode>().notNull().default('per_email'),
    /** How the sheet writer knows this parser's rows: the Row Key column for parsers made since decision 014. */
    sheetKey: text('sheet_key').$type<SheetKey>().notNull().default('row_key'),
    /** The sample email the template was learned from (normalised), so it can be relearned. */
    trainingSample: jsonb('training_sample').$type<Record<string, unknown>>(),
    /** Gmail id of the sample (or the built-in sample's id). */
    sampleMessageId: text('sample_message_id'),
    /** The mailbox's historyId at activation: the parser takes mail added after it (older mail is backfill's). */
    startHistoryId: text('start_history_id'),
    /**
     * Emails the user trained the parser on after activation ('Train on this email'): the Gmail id
     * and the values highlighted in it. With the original sample, the template is learned from all.
     */
    trainingSamples: jsonb('training_samples').$type<TrainingSampleRef[]>().notNull().default([]),
    /** The template learned from the sample (the engine's TrainedTemplate). */
    template: jsonb('template').$type<Record<string, unknown>>(),
    /**
     * The sheet's columns as this parser lays them out, in sheet order (docs/decisions/022). Append
     * only: an edit adds columns at the end and never moves or drops one. Null for parsers never
     * edited: their layout is `sheetColumns(fields)`.
     */
    sheetColumns: jsonb('sheet_columns').$type<SheetColumn[]>(),
    /** Starter's advanced filters (sender domain, body words, attachment, a Gmail query); null when none. */
    advancedFilters: jsonb('advanced_filters').$type<AdvancedFilters>(),
    /** Starter's custom fields: email metadata, fixed values, computed values. */
    customFields: jsonb('custom_fields').$type<CustomField[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('parsers_user_id_created_at_idx').on(t.userId, t.createdAt.desc())],
)

/** One extra training sample of a parser: a Gmail message and the fields highlighted in it. */
export type TrainingSampleRef = { messageId: string; fields: ExtractionField[] }

/** Gmail / Sheets connection (spec §3). Tokens are AES-256-GCM ciphertext, never plain text. */
export const connectedAccounts = pgTable(
  'connected_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<'gmail'>().notNull().default('gmail'),
    accessToken: text('access_token').notNull(),
    refreshToken: text('refresh_token').notNull().default(''),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    accountEmail: text('account_email').notNull(),
    accountId: text('account_id').notNull(),
    scopes: text('scopes').notNull().default(''),
    /** connected | needs_reconnect; the reason is shown on the dashboard. */
    status: text('status').$type<'connected' | 'needs_reconnect'>().notNull().default('connected'),
    statusReason: text('status_reason'),
    /** Gmail historyId the sync has reached. */
    historyId: text('history_id'),
    /** When the last sync finished; a full re-sync looks back from here. */
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** Messages the history named but whose download failed: fetched again later, with backoff. */
    syncBacklog: jsonb('sync_backlog').$type<DeferredMessage[]>().notNull().default([]),
    /** When the scheduler next hands this mailbox to a worker (claimed with FOR UPDATE SKIP LOCKED: docs/decisions/016). */
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }).notNull().defaultNow(),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('connected_accounts_user_provider_idx').on(t.userId, t.provider),
    index('connected_accounts_due_idx').on(t.nextPollAt).where(sql`${t.status} = 'connected'`),
  ],
)

/** A message whose download failed (a timeout, a 5xx): the sync has moved past it and tries it again at `retryAt`. */
export type DeferredMessage = { id: string; recordId?: string; attempts: number; retryAt: string }

export type SheetCell = string | number | boolean | null
export type { SheetKey, SheetColumn } from '../../shared/contracts/sheets'
import type { SheetColumn, SheetKey } from '../../shared/contracts/sheets'
import type { AdvancedFilters, CustomField } from '../../shared/contracts/parser-edit'

/** pending and processing are the pipeline's own; the rest are outcomes users see. */
export const PARSED_EMAIL_STATUSES = ['pending', 'processing', 'success', 'partial', 'failed', 'quota_exceeded', 'skipped'] as const
export type ParsedEmailStatus = (typeof PARSED_EMAIL_STATUSES)[number]

/** The ledger: one row per (parser, Gmail message), whatever retries or duplicate notifications happen. */
export const parsedEmails = pgTable(
  'parsed_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parserId: uuid('parser_id').references(() => parsers.id, { onDelete: 'set null' }),
    gmailMessageId: text('gmail_message_id'),
    emailSubject: text('email_subject'),
    emailFrom: text('email_from'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').$type<ParsedEmailStatus>().notNull(),
    extractedData: jsonb('extracted_data').$type<Record<string, unknown>>(),
    /** Per field: why it is empty (the engine's reason), null when found; shown on the parser's page. */
    details: jsonb('details').$type<Record<string, { reason: string | null }>>(),
    extractionMethod: text('extraction_method'),
    error: text('error'),
    timings: jsonb('timings').$type<Record<string, number>>(),
    writtenToSheets: boolean('written_to_sheets').notNull().default(false),
    /** sync | backfill | test | api (submitted by REST API, raw kept in submitted_emails): how the email reached the ledger. */
    source: text('source').$type<'sync' | 'backfill' | 'test' | 'api'>().notNull().default('sync'),
    /** Lease of the worker processing the row; an expired lease is picked up again. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * none → queued → writing → written. 'writing' means a write may or may not have landed.
     * 'updating': a reprocessed email whose rows are in the sheet; they are overwritten in place.
     */
    sheetState: text('sheet_state').$type<'none' | 'queued' | 'writing' | 'written' | 'updating'>().notNull().default('none'),
    spreadsheetId: text('spreadsheet_id'),
    /** The rows to append (one, or one per line item), computed once when the email is processed. */
    sheetRows: jsonb('sheet_rows').$type<SheetCell[][]>(),
    /**
     * What identifies this email's rows in the sheet when a write's outcome is unknown: the Message
     * ID column, or Message ID plus Item # for one row per item (docs/decisions/010).
     */
    sheetKey: text('sheet_key').$type<SheetKey>().notNull().default('message'),
    sheetAttemptAt: timestamp('sheet_attempt_at', { withTimezone: true }),
    /** 0-based column of the row's first key cell; null: the key is the row's last cell(s) (rows from before decision 022). */
    sheetKeyAt: integer('sheet_key_at'),
  },
  (t) => [
    index('parsed_emails_user_status_idx').on(t.userId, t.status),
    index('parsed_emails_sheet_queue_idx').on(t.spreadsheetId, t.sheetState),
    index('parsed_emails_user_processed_idx').on(t.userId, t.processedAt.desc()),
    index('parsed_emails_parser_processed_idx').on(t.parserId, t.processedAt.desc()),
    // A parser's last success, read for its health on every dashboard view: one index entry away
    // however many failures came after it.
    index('parsed_emails_parser_success_idx').on(t.parserId, t.processedAt.desc()).where(sql`${t.status} = 'success'`),
    // A parser's emails newest first: its page's table and the export's keyset pages (docs/decisions/023).
    index('parsed_emails_parser_sort_idx').on(t.parserId, sql`coalesce(${t.receivedAt}, ${t.processedAt}) desc`, sql`${t.id} desc`),
    // Open work is a sliver of the ledger: the scheduler asks "does this user have any?" per pass.
    index('parsed_emails_open_work_idx').on(t.userId).where(sql`${t.status} in ('pending', 'processing', 'quota_exceeded')`),
    index('parsed_emails_open_writes_idx').on(t.userId).where(sql`${t.sheetState} in ('queued', 'writing', 'updating')`),
    uniqueIndex('parsed_emails_parser_message_idx')
      .on(t.parserId, t.gmailMessageId)
      .where(sql`${t.gmailMessageId} is not null`),
  ],
)

/**
 * Outgoing mail kept when no SMTP server is configured, shown on the development outbox page
 * so password resets work on a laptop without a mail server.
 */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (t) => [index('dev_outbox_created_at_idx').on(t.createdAt.desc())],
)

/**
 * Short leases that keep one worker at a time on a mailbox ('mailbox:<user>') or a spreadsheet
 * ('sheet:<id>'); a crashed worker's lease simply expires.
 */
export const leases = pgTable('leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})

// ── REST API (issue 13) ──

/**
 * API keys: only the SHA-256 of the key is kept (the key is shown once). The fixed rate-limit
 * window lives on the key so one UPDATE authenticates, counts and marks it used (decision 019).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The key's first characters (mrw_ and 4 more), to tell keys apart in the list. */
    start: text('start').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
    windowCount: integer('window_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_user_id_idx').on(t.userId)],
)

/**
 * Emails submitted through the API: the raw message the pipeline reads instead of Gmail, and the
 * Idempotency-Key that makes a retried submission return the first one's ledger row.
 */
export const submittedEmails = pgTable(
  'submitted_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parsedEmailId: uuid('parsed_email_id')
      .notNull()
      .references(() => parsedEmails.id, { onDelete: 'cascade' }),
    /** The synthetic message id of the ledger row (api-<hex>). */
    messageId: text('message_id').notNull(),
    /** The RFC 822 message, base64. */
    raw: text('raw').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('submitted_emails_parsed_email_idx').on(t.parsedEmailId),
    index('submitted_emails_user_message_idx').on(t.userId, t.messageId),
    uniqueIndex('submitted_emails_user_idempotency_idx')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
)
// ── Billing (docs/decisions/021) ──

/**
 * A user's Stripe customer and the state of their subscription as last read from Stripe. Written
 * only by the verified webhook handler (and the customer id by Checkout); users.plan follows it.
 */
export const billingAccounts = pgTable('billing_accounts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  subscriptionId: text('subscription_id'),
  /** Stripe's subscription status (active, past_due, canceled, ...); null before the first subscription. */
  status: text('status'),
  /** The paid plan of the subscription's price; users.plan is this while the subscription is paid for. */
  plan: text('plan').$type<Plan>(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  /** When a renewal first failed; the grace period runs from here. Null once paid again. */
  paymentFailedAt: timestamp('payment_failed_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/** Stripe events already handled, by id: a redelivered or replayed event changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})

// ── Webhooks (Pro: docs/decisions/020) ──

/** A URL that receives signed events (Standard Webhooks). The secret is AES-256-GCM ciphertext. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    /** Parsers whose events are sent; empty means every parser. */
    parserIds: jsonb('parser_ids').$type<string[]>().notNull().default([]),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the endpoint was turned off automatically (it kept failing); null when the user did it or it is on. */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.createdAt)],
)

/** One attempt to deliver a message: when, and what the receiver answered. */
export type WebhookAttempt = { at: string; statusCode: number | null; durationMs: number; error: string | null; responseExcerpt: string }

/**
 * One message to one endpoint, and the delivery queue: due when `next_attempt_at` has passed;
 * a worker claims it (FOR UPDATE SKIP LOCKED) by setting `locked_until` a lease ahead.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header: the same on every retry and redelivery, so receivers can drop duplicates. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** One event per (endpoint, key): a parser's layout change or the month's limit is announced once. */
    dedupeKey: text('dedupe_key'),
    /** pending (queued or retrying) | succeeded | failed (retries exhausted, or the endpoint was disabled). */
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: jsonb('attempts').$type<WebhookAttempt[]>().notNull().default([]),
    /** Attempts since the message was (re)queued; the backoff schedule counts these. */
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker is sending it until then (a crashed worker's claim runs out); null when none is. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc()),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    uniqueIndex('webhook_deliveries_dedupe_idx')
      .on(t.endpointId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
  ],
)
