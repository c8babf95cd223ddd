import { createHash, randomBytes } from 'node:crypto'
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { sql } from 'kysely'
import pg from 'pg'

import { openDatabase } from '../../src/db/database.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'

/** Set DATABASE_URL to run the suite on PostgreSQL; each test file then gets a fresh database. */
export const postgresUrl = process.env.DATABASE_URL || undefined
export const onPostgres = postgresUrl !== undefined

/**
 * The migrated database every test database starts from, made once per run by the global setup
 * (test/helpers/global-setup.ts): a PGlite data directory to copy, or a PostgreSQL template
 * database. Unset (a test run outside vitest's setup), each database is migrated when it opens.
 */
export const TEMPLATE_ENV = 'EXCHANGE_TEST_TEMPLATE'

export interface TestDatabase {
  env: Record<string, string>
  /** For tests that spawn processes sharing this database. */
  databaseUrl: string | undefined
  dataDir: string
  drop: () => Promise<void>
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-test-'))
  const template = process.env[TEMPLATE_ENV] || undefined
  if (!postgresUrl) {
    // A copy of a migrated data directory opens in a fraction of the time initdb and the
    // migrations take (`pgdata` is where src/db/database.ts keeps it).
    if (template) cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true })
    return { env: { DATA_DIR: dataDir }, databaseUrl: undefined, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
  }
  const name = `exchange_test_${randomBytes(6).toString('hex')}`
  await withAdmin(async (admin) => {
    if (!template) return void (await admin.query(`CREATE DATABASE ${name}`))
    // Refused while another session is connected to the template (autovacuum, a file creating
    // its database at the same moment on an older server): wait a moment and ask again.
    for (let attempt = 0; ; attempt++) {
      try {
        return void (await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`))
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test((error as Error).message)) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  })
  const url = databaseUrlOf(name)
  return {
    env: { DATABASE_URL: url, DATA_DIR: dataDir },
    databaseUrl: url,
    dataDir,
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    },
  }
}

/** Makes the migrated template (global setup); returns what `TEMPLATE_ENV` names and how to remove it. */
export async function createTemplate(): Promise<{ template: string; remove: () => Promise<void> }> {
  const connection = { dbPoolSize: 1, statementTimeoutMs: 60_000 }
  if (!postgresUrl) {
    // Kept between runs, named by what it is made of: a run after a change to the tests or to
    // src/ skips initdb and the migrations altogether; a new migration makes a new one.
    const template = path.join(tmpdir(), `exchange-test-template-${templateKey()}`)
    if (existsSync(path.join(template, 'PG_VERSION'))) return { template, remove: async () => {} }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-template-'))
    try {
      // initdb alone, kept as the blank cluster a first-run test starts from (blankClusterOf).
      await (await openDatabase({ ...connection, databaseUrl: undefined, dataDir })).close()
      cpSync(path.join(dataDir, 'pgdata'), path.join(dataDir, 'blank'), { recursive: true })
      const handle = await openDatabase({ ...connection, databaseUrl: undefined, dataDir })
      try {
        await migrateToLatest(handle.db)
        // Every test database is a copy of this directory, and the application uses only the
        // `postgres` database: without initdb's template0 and template1 a copy is a third smaller.
        for (const name of ['template0', 'template1']) {
          await sql.raw(`ALTER DATABASE ${name} IS_TEMPLATE false`).execute(handle.db)
          await sql.raw(`DROP DATABASE ${name}`).execute(handle.db)
        }
        await sql`CHECKPOINT`.execute(handle.db)
      } finally {
        await handle.close()
      }
      for (const cluster of ['blank', 'pgdata']) appendFileSync(path.join(dataDir, cluster, 'postgresql.conf'), TEST_CLUSTER_SETTINGS)
      // Whole or not at all: a run beside this one either sees it complete or makes its own.
      renameSync(path.join(dataDir, 'blank'), `${template}-blank`)
      renameSync(path.join(dataDir, 'pgdata'), template)
    } catch (error) {
      if (!existsSync(path.join(template, 'PG_VERSION'))) throw error
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
    return { template, remove: async () => {} }
  }
  const name = `exchange_template_${randomBytes(6).toString('hex')}`
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`))
  const drop = () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  try {
    const handle = await openDatabase({ ...connection, databaseUrl: databaseUrlOf(name), dataDir: '' })
    try {
      await migrateToLatest(handle.db)
    } finally {
      await handle.close()
    }
    // No one connects to it again: copying needs it to have no sessions.
    await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`))
  } catch (error) {
    await drop()
    throw error
  }
  return { template: name, remove: async () => void (await drop()) }
}

/**
 * An embedded cluster as initdb leaves it, before any migration, made beside the template: a test
 * of the service's first start copies it rather than spend seconds of CPU on initdb again. Undefined
 * outside vitest's setup or on PostgreSQL.
 */
export function blankClusterOf(): string | undefined {
  const template = process.env[TEMPLATE_ENV]
  const blank = template && !postgresUrl ? `${template}-blank` : undefined
  return blank && existsSync(path.join(blank, 'PG_VERSION')) ? blank : undefined
}

/**
 * A start of PGlite spends most of its time setting up shared memory for initdb's default 128 MB of
 * shared buffers: with 8 MB an open takes ~0.25 s instead of ~0.8, and a run opens some hundred
 * test databases. Test databases hold a few hundred rows; the service's own clusters keep the
 * default (CONTRIBUTING.md, "How the suite is set up").
 */
const TEST_CLUSTER_SETTINGS = '\n# Test databases only (test/helpers/database.ts).\nshared_buffers = 8MB\n'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** The migrations' names and texts and the PGlite version: what the embedded template is made of. */
function templateKey(): string {
  const hash = createHash('sha256')
  const pglite = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }
  hash.update(`pglite ${pglite.version}\n`)
  hash.update('no template databases\n').update(TEST_CLUSTER_SETTINGS)
  const migrations = path.join(ROOT, 'migrations')
  for (const file of readdirSync(migrations).sort()) hash.update(`${file}\n`).update(readFileSync(path.join(migrations, file)))
  return hash.digest('hex').slice(0, 16)
}

function databaseUrlOf(name: string): string {
  const url = new URL(postgresUrl!)
  url.pathname = `/${name}`
  return url.toString()
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}
