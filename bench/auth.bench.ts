import { performance } from 'node:perf_hooks'
import { hashPassword, verifyPassword } from '../src/server/auth/password'
import { createTestApp } from '../src/server/testing/test-app'

/** Prints the cost of password hashing and of the sign-in and session endpoints, in-process on PGlite. */
function summarise(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1)
  console.log(`${label.padEnd(34)} n=${String(samples.length).padStart(3)}  p50 ${at(0.5).padStart(7)} ms  p95 ${at(0.95).padStart(7)} ms`)
}

async function time(n: number, fn: (i: number) => Promise<unknown>) {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await fn(i)
    samples.push(performance.now() - start)
  }
  return samples
}

export async function runAuthBench() {
  const hashed = await hashPassword('Bench-Password1')
  summarise('argon2id hash (19 MiB, t=2)', await time(20, () => hashPassword('Bench-Password1')))
  summarise('argon2id verify', await time(20, () => verifyPassword({ hash: hashed, password: 'Bench-Password1' })))

  const t = await createTestApp({ rateLimits: { signIn: { window: 60, max: 10_000 }, signUp: { window: 60, max: 10_000 } } })
  try {
    const client = t.client()
    summarise(
      'POST /api/auth/sign-up/email',
      await time(20, (i) => client.post('/api/auth/sign-up/email', { email: `bench${i}@example.com`, password: 'Bench-Password1', name: 'b' })),
    )
    summarise(
      'POST /api/auth/sign-in/email',
      await time(20, (i) => client.post('/api/auth/sign-in/email', { email: `bench${i}@example.com`, password: 'Bench-Password1' })),
    )
    summarise('GET /api/account (session check)', await time(100, () => client.get('/api/account')))
    summarise('GET /api/health', await time(100, () => client.get('/api/health')))
  } finally {
    await t.close()
  }
}
