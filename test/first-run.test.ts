import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { openDatabase } from '../src/db/database.ts'
import { startServerProcess } from './helpers/process.ts'

const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-first-run-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

async function snapshot() {
  const handle = await openDatabase({ databaseUrl: undefined, dataDir, dbPoolSize: 1, statementTimeoutMs: 5000 })
  try {
    const { db } = handle
    return {
      clients: await db.selectFrom('clients').selectAll().orderBy('id').execute(),
      keys: await db.selectFrom('signing_keys').select(['kid', 'public_jwk', 'activated_at', 'retired_at']).orderBy('kid').execute(),
      symbols: await db.selectFrom('symbols').selectAll().orderBy('symbol').execute(),
      currencies: await db.selectFrom('currencies').selectAll().orderBy('code').execute(),
      accounts: await db.selectFrom('accounts').selectAll().orderBy('tenant_id').orderBy('currency').execute(),
      ledger: await db.selectFrom('ledger_entries').select(['tenant_id', 'currency', 'amount', 'kind', 'reference']).orderBy('currency').execute(),
    }
  } finally {
    await handle.close()
  }
}

describe('first run on the embedded database', () => {
  let first: Awaited<ReturnType<typeof snapshot>>
  let secret: string

  it('migrates, seeds, creates a demo client and names the credentials file, never the secret', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir })
    try {
      const health = await fetch(`${server.url}/readyz`)
      expect(health.status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const file = path.join(dataDir, 'demo-client.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const demo = JSON.parse(readFileSync(file, 'utf8'))
    expect(demo).toMatchObject({ client_id: expect.any(String), client_secret: expect.any(String), tenant_id: expect.any(String) })
    secret = demo.client_secret
    expect(server.output()).toContain(file)
    expect(server.output()).not.toContain(secret)

    first = await snapshot()
    expect(first.clients).toHaveLength(1)
    expect(first.keys).toHaveLength(1)
    expect(first.symbols.length).toBeGreaterThanOrEqual(8)
    expect(first.currencies.length).toBe(9)
    // The demo tenant is funded in every demo currency, through deposits with references.
    expect(first.accounts.map((a) => a.currency)).toEqual(first.currencies.map((c) => c.code))
    expect(first.accounts.every((a) => a.tenant_id === demo.tenant_id && Number(a.balance) > 0 && a.hold === '0')).toBe(true)
    expect(first.ledger.map((e) => [e.kind, e.reference])).toEqual(first.currencies.map((c) => ['deposit', `demo-funding-${c.code}`]))
  })

  it('keeps every client, key and record across a restart, and creates no second demo client', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir })
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      expect(server.output()).not.toContain(secret)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    expect(await snapshot()).toEqual(first)
  })
})
