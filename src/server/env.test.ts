import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from './env'

describe('parseEnv', () => {
  it('has working defaults for a fresh machine', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      PORT: 3000,
      APP_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      DEMO_MODE: true,
      RUN_WORKER: true,
    })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('derives APP_URL from PORT and strips a trailing slash', () => {
    expect(parseEnv({ PORT: '4321' }).APP_URL).toBe('http://localhost:4321')
    expect(parseEnv({ APP_URL: 'https://mail.example.com/' }).APP_URL).toBe('https://mail.example.com')
  })

  it('polls every 30 s with Google, every 12 minutes as a safety net with push, unless told otherwise', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }
    expect(parseEnv(google).POLL_INTERVAL_SECONDS).toBe(30)
    expect(parseEnv({ ...google, GMAIL_PUSH_TOPIC: 'projects/p/topics/t' }).POLL_INTERVAL_SECONDS).toBe(720)
    expect(parseEnv({ ...google, GMAIL_PUSH_TOPIC: 'projects/p/topics/t', POLL_INTERVAL_SECONDS: '60' }).POLL_INTERVAL_SECONDS).toBe(60)
    expect(parseEnv({}).WORKER_CONCURRENCY).toBe(25)
    expect(() => parseEnv({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/)
  })

  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', SMTP_URL: '', APP_SECRET: '' }).DATABASE_URL).toBeUndefined()
  })

  it('names every bad variable at once', () => {
    let error: unknown
    try {
      parseEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        APP_SECRET: 'short',
        SMTP_URL: 'http://mail',
        GOOGLE_CLIENT_ID: 'id-only',
        AI_BASE_URL: 'not a url',
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EnvError)
    const message = (error as EnvError).message
    for (const name of ['PORT', 'DATABASE_URL', 'APP_SECRET', 'SMTP_URL', 'GOOGLE_CLIENT_SECRET', 'AI_BASE_URL']) {
      expect(message).toContain(name)
    }
  })

  it('leaves demo mode when Google credentials are set', () => {
    expect(parseEnv({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).DEMO_MODE).toBe(false)
  })
})
