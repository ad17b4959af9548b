import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

/** Runs raw SQL for libraries that bring their own (pg-boss). */
export type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  sql: SqlExecutor
  /** Applies the committed drizzle-kit migrations. */
  migrate(): Promise<void>
  close(): Promise<void>
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite in `dataDir`
 * (`memory://` keeps it in memory, for tests).
 */
export async function openDatabase(options: { url?: string; dataDir?: string; initInChildProcess?: boolean }): Promise<Database> {
  if (options.url) return openPostgres(options.url)
  return openPglite(options.dataDir ?? 'memory://', options.initInChildProcess ?? false)
}

/**
 * PGlite's settings for a one-process install (docs/decisions/018): PostgreSQL's default 128 MB of
 * shared buffers live inside the WebAssembly heap, which never shrinks; 32 MB keeps the working
 * set of a small install and leaves the rest to the OS's file cache.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB']

async function openPglite(dataDir: string, initInChildProcess: boolean): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://')
  const pgDataDir = inMemory ? undefined : resolve(dataDir, 'pglite')
  if (!inMemory) mkdirSync(dataDir, { recursive: true })
  // Creating a database runs initdb in a WebAssembly instance of its own, whose ~400 MB the process
  // would keep for good: for the long-lived server a new data directory is created by a
  // short-lived child process instead.
  if (initInChildProcess && pgDataDir && !existsSync(resolve(pgDataDir, 'PG_VERSION'))) initPgliteInChildProcess(pgDataDir)
  const client = await PGlite.create(pgDataDir, { startParams: PGLITE_START_PARAMS })
  const db = drizzlePglite(client, { schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    sql: {
      // PGlite's query() takes one statement; pg-boss sends parameterless multi-statement
      // scripts (its own migrations), which must go through exec().
      async executeSql(text, values) {
        if (values && values.length > 0) {
          const result = await client.query(text, values)
          return { rows: result.rows }
        }
        const results = await client.exec(text)
        return { rows: results.at(-1)?.rows ?? [] }
      },
    },
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = drizzlePg(pool, { schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    sql: {
      async executeSql(text, values) {
        const result = await pool.query(text, values as unknown[] | undefined)
        return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows }
      },
    },
    // Web and worker processes may start together: an advisory lock lets one migrate at a time.
    async migrate() {
      const client = await pool.connect()
      try {
        await client.query('select pg_advisory_lock(7243001)')
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder })
      } finally {
        await client.query('select pg_advisory_unlock(7243001)').catch(() => {})
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/** Runs PGlite's initdb for `pgDataDir` in a child process (plain Node, no TypeScript loader). */
function initPgliteInChildProcess(pgDataDir: string) {
  const script = `const { PGlite } = await import(process.argv[1]); const db = await PGlite.create(process.argv[2]); await db.close()`
  execFileSync(process.execPath, ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), pgDataDir], { stdio: 'inherit' })
}
