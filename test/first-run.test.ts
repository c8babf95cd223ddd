import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import { runDashboardExample } from '../examples/dashboard/dashboard.ts'
import { prepareFirstRun } from '../src/app/first-run.ts'
import { createApp } from '../src/app/server.ts'
import { closeServices, openServices } from '../src/app/services.ts'
import { loadConfig } from '../src/core/config.ts'
import { openDatabase } from '../src/db/database.ts'
import { listen } from '../src/http/listen.ts'
import { createLogger } from '../src/observability/logger.ts'
import { blankClusterOf } from './helpers/database.ts'
import { LogSink } from './helpers/log-sink.ts'
import { ROOT, startServerProcess } from './helpers/process.ts'

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

  // initdb, every migration and the seed in a process of its own: past vitest's 90 s beside a
  // second suite (load 15 on 2 cores). Longer than startServerProcess's own 180 s, which kills a
  // server that never listens, so no server is left holding the database for the next test.
  it('migrates, seeds, creates a demo client and names the credentials file, never the secret', { timeout: 240_000 }, async () => {
    // initdb is PGlite's, and seconds of CPU: the cluster starts as initdb leaves it, with nothing
    // of the service's. A start on a DATA_DIR with nothing at all is CI's smoke start (.ci/run).
    const blank = blankClusterOf()
    if (blank) cpSync(blank, path.join(dataDir, 'pgdata'), { recursive: true })
    // As a plain `npm start` does: no configuration but where the data goes.
    const server = await startServerProcess({ DATA_DIR: dataDir })
    const file = path.join(dataDir, 'demo-client.json')
    try {
      const health = await fetch(`${server.url}/readyz`)
      expect(health.status).toBe(200)
      // The README's next step: the dashboard example, whose documents travel by id only.
      const demo = JSON.parse(readFileSync(file, 'utf8'))
      const lines: string[] = []
      await runDashboardExample({ baseUrl: server.url, credentials: demo, log: (line) => lines.push(line) })
      expect(lines.at(-1)).toMatch(/^followed orderEvents over WebSocket: order\.created of [0-9a-f-]{36} at sequence \d+$/)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    // The start says what it is doing while the first run takes its time, in order.
    const messages = server
      .output()
      .split('\n')
      .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line).msg as string] : []))
    const steps = [
      "embedded demo: serving the dashboard example's persisted documents (GRAPHQL_PERSISTED_DOCUMENTS unset)",
      'starting: opening the database and applying migrations',
      'applied migrations',
      'first run: seeding the demo market and creating a demo client',
      'exchange API listening',
    ]
    expect(messages.filter((msg) => steps.includes(msg))).toEqual(steps)
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
    expect(first.accounts.every((a) => a.tenant_id === demo.tenant_id && Number(a.balance) > 0)).toBe(true)
    // The dashboard example's open buy of USD-IRR holds IRR, and nothing else.
    expect(first.accounts.filter((a) => Number(a.hold) !== 0).map((a) => a.currency)).toEqual(['IRR'])
    expect(first.ledger.map((e) => [e.kind, e.reference])).toEqual(first.currencies.map((c) => ['deposit', `demo-funding-${c.code}`]))
  })

  it('keeps every client, key and record across a restart, and creates no second demo client', async () => {
    // The start of src/app/main.ts in this process: a second server process would only load the
    // application again, and the first start above is the one that runs it as `npm start` does.
    const config = loadConfig({ LOG_LEVEL: 'info', DATA_DIR: dataDir })
    const sink = new LogSink()
    const services = await openServices(config, createLogger(config, sink))
    try {
      expect(await prepareFirstRun(services)).toBeUndefined()
      const server = await listen(createApp(services), 0, '127.0.0.1', {
        idleSeconds: config.connectionIdleSeconds,
        perAddress: config.maxConnectionsPerAddress,
      })
      try {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      } finally {
        await server.close()
      }
    } finally {
      await closeServices(services)
    }
    expect(sink.lines().length).toBeGreaterThan(0)
    // No KEY_ENCRYPTION_KEY here: the warning gives the command that makes one, and what it prints is accepted.
    const warning = sink.lines().find((line) => line.msg.startsWith('KEY_ENCRYPTION_KEY is not set'))
    expect(warning?.make_key).toBe(`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`)
    const [, script] = /^node -e "(.+)"$/.exec(warning!.make_key)!
    const key = execFileSync(process.execPath, ['-e', script!], { encoding: 'utf8' }).trim()
    expect(loadConfig({ DATA_DIR: dataDir, KEY_ENCRYPTION_KEY: key }).keyEncryptionKey).toBe(key)
    expect(JSON.stringify(sink.lines())).not.toContain(secret)
    expect(await snapshot()).toEqual(first)
  })
})

describe('npm start', () => {
  it('says it is building before the silent first build', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    const [say, build] = scripts.prestart!.split(' && ')
    expect(build).toBe('npm run build')
    expect(say).toMatch(/^node -e /)
    const printed = execFileSync(process.execPath, ['-e', /^node -e "(.+)"$/.exec(say!)![1]!], { encoding: 'utf8' })
    expect(printed).toBe('Building the service (tsc; the first start takes ~30 s)…\n')
  })
})
