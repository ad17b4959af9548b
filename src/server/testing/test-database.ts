import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '../db/client'

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server named by TEST_DATABASE_URL (dropped again on close).
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) {
    const database = await openDatabase({ dataDir: 'memory://' })
    await database.migrate()
    return database
  }
  return (await openPostgresTestDatabase(adminUrl)).database
}

/** The machine's PostgreSQL, for tests that need several processes on one database. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

/** A fresh database on a PostgreSQL server (dropped on close), and its URL for other processes. */
export async function openPostgresTestDatabase(adminUrl = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL) {
  const name = `mailrow_test_${randomBytes(6).toString('hex')}`
  await withAdmin(adminUrl, (client) => client.query(`create database ${name}`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString() })
  await database.migrate()
  return {
    url: url.toString(),
    database: {
      ...database,
      async close() {
        await database.close()
        await withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`))
      },
    } satisfies Database,
  }
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}
