import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import pg from 'pg'

/** Set DATABASE_URL to run the suite on PostgreSQL; each test file then gets a fresh database. */
export const postgresUrl = process.env.DATABASE_URL || undefined
export const onPostgres = postgresUrl !== undefined

export interface TestDatabase {
  env: Record<string, string>
  /** For tests that spawn processes sharing this database. */
  databaseUrl: string | undefined
  dataDir: string
  drop: () => Promise<void>
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-test-'))
  if (!postgresUrl) {
    return { env: { DATA_DIR: dataDir }, databaseUrl: undefined, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
  }
  const name = `exchange_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      const client = new pg.Client({ connectionString: postgresUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}
