/**
 * Webhooks scenario (docs/performance.md, "Scenarios and goals"; issue 42), PostgreSQL only:
 * BENCH_WEBHOOK_TENANTS tenants (10) with BENCH_WEBHOOK_ENDPOINTS endpoints (100, so 10 each, the
 * most a tenant may have) on one local node:http receiver, which runs in a child process of its
 * own so its arrival times are not held up by this process's work. Each tenant's endpoints are on
 * an address of their own (127.0.0.<tenant + 1>, all loopback): one bank, one host, as the
 * sender counts its sockets per host. Three phases:
 *
 * 1. steady: events committed at BENCH_WEBHOOK_RATE per second (500) for BENCH_DURATION seconds
 *    (20), round-robin over the tenants, each woken as the service wakes its dispatcher. Each is a
 *    `balance` event appended and notified as the accounts module writes one, its body a real
 *    deposit's (BENCH_WEBHOOK_EVENTS=transfers: whole deposits, ledger included). Latency = the
 *    receiver's arrival time − the event's `created_at` (taken before its statement, so the
 *    figure errs high), p50/p99; deliveries, duplicates, order violations, lost.
 * 2. backlog: the dispatcher stopped, BENCH_WEBHOOK_BACKLOG events (5000) committed, then started:
 *    its throughput, CPU per delivery (this process's, the PostgreSQL backends', the receiver's)
 *    and the statements it ran per delivery, with nothing else running.
 * 3. outage: the receiver answers 503 for BENCH_WEBHOOK_OUTAGE seconds (60; shorter for quick
 *    runs) while events keep coming at the rate, then 200 again: how long after it is back until
 *    every event was delivered, lost (must be 0), order violations (must be 0), duplicates (only
 *    ever with the same webhook-id, which is the event's `<tenant>:<sequence>`, checked against
 *    the body's sequence).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhooks.ts
 *
 * BENCH_WEBHOOK_ONLY=backlog (or steady, outage, comma-separated) runs those phases alone;
 * BENCH_WEBHOOK_CONCURRENCY sets the dispatcher's `concurrency` (the service's default otherwise).
 *
 * A throwaway database on that server is created and dropped. The dispatcher is the service's own
 * (`WebhookDispatcher`, default options), over the service's database handle with a plugin
 * counting its statements.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'

import pg from 'pg'
import pino from 'pino'

import { closeServices, openServices } from '../src/app/services.ts'
import { loadConfig } from '../src/core/config.ts'
import { formatTimestamp } from '../src/core/timestamps.ts'
import type { Db } from '../src/db/database.ts'
import { createClient } from '../src/modules/auth/clients/clients.ts'
import { transfer } from '../src/modules/exchange/accounts/accounts.ts'
import { appendTenantEvents, notifyEvents, tenantStream } from '../src/modules/exchange/event-log/event-log.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { WebhookDispatcher } from '../src/modules/exchange/webhooks/webhook-dispatcher.ts'
import { generateWebhookSecret, sealSecret } from '../src/modules/exchange/webhooks/webhook-secrets.ts'
import { insertEndpoint, storedTime } from '../src/modules/exchange/webhooks/webhooks.repository.ts'
import { cpuMs, databaseCpuMs } from './events.ts'

const env = process.env
const TENANTS = Number(env.BENCH_WEBHOOK_TENANTS ?? 10)
const ENDPOINTS = Number(env.BENCH_WEBHOOK_ENDPOINTS ?? 100)
const RATE = Number(env.BENCH_WEBHOOK_RATE ?? 500)
const DURATION = Number(env.BENCH_DURATION ?? 20)
const BACKLOG = Number(env.BENCH_WEBHOOK_BACKLOG ?? 5000)
const OUTAGE = Number(env.BENCH_WEBHOOK_OUTAGE ?? 60)
/**
 * How each event is written: `append` (default), a `balance` event appended and notified as the
 * accounts module writes one (`appendTenantEvents`, `notifyEvents`), its body a real deposit's;
 * `transfers`, a whole deposit (the ledger's work too: on 2 cores it leaves the dispatcher less).
 */
const SOURCE = env.BENCH_WEBHOOK_EVENTS === 'transfers' ? 'transfers' : 'append'
/** The dispatcher's endpoints at once (its option `concurrency`; the service's default when unset). */
const CONCURRENCY = env.BENCH_WEBHOOK_CONCURRENCY ? Number(env.BENCH_WEBHOOK_CONCURRENCY) : undefined
/** Comma-separated phases to run (steady, backlog, outage): all by default. */
const ONLY = env.BENCH_WEBHOOK_ONLY?.split(',').map((p) => p.trim())
const runs = (phase: string) => !ONLY || ONLY.includes(phase)
// Transfers in flight at once: the producer shares the service's pool with the dispatcher, as a server's requests do.
const PRODUCER_CONCURRENCY = 8

/**
 * The receiver, as plain JavaScript for `node -e`: answers 200 (or 503 while down) to every POST
 * and keeps, per arrival, [endpoint, sequence, status, latency from the event's created_at in ms].
 */
const RECEIVER = `
const http = require('node:http')
let up = true
let arrivals = []
let acked = 0
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = Date.now()
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const id = String(req.headers['webhook-id'])
    const sequence = Number(id.slice(id.indexOf(':') + 1))
    // The id names the event it came with: a duplicate with another id would be counted as a mismatch.
    const mismatch = sequence !== body.sequence ? 1 : 0
    const status = up ? 200 : 503
    if (status === 200) acked++
    arrivals.push([Number(req.url.slice(1)), sequence, status, at - Date.parse(body.created_at + 'Z'), mismatch])
    res.writeHead(status)
    res.end()
  })
})
server.keepAliveTimeout = 60000
server.listen(0, '0.0.0.0', () => process.send({ port: server.address().port }))
process.on('message', (m) => {
  if (m.up !== undefined) up = m.up
  if (m.acked) process.send({ acked })
  if (m.take) { process.send({ arrivals }); arrivals = [] }
  if (m.close) { server.close(); process.disconnect() }
})
`

type Arrival = [endpoint: number, sequence: number, status: number, latencyMs: number, mismatch: number]

class Receiver {
  #child: ChildProcess
  #waiting: ((m: Record<string, unknown>) => void)[] = []
  port = 0
  constructor() {
    this.#child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    this.#child.on('message', (m: Record<string, unknown>) => this.#waiting.shift()?.(m))
  }
  #ask(message: object): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve)
      if (Object.keys(message).length > 0) this.#child.send(message)
    })
  }
  async start() {
    this.port = (await this.#ask({})).port as number
  }
  setUp(up: boolean) {
    this.#child.send({ up })
  }
  async acked(): Promise<number> {
    return (await this.#ask({ acked: true })).acked as number
  }
  async take(): Promise<Arrival[]> {
    return (await this.#ask({ take: true })).arrivals as Arrival[]
  }
  get pid() {
    return this.#child.pid!
  }
  close() {
    this.#child.send({ close: true })
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!)
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

async function main(): Promise<void> {
  const adminUrl = env.DATABASE_URL
  if (!adminUrl) throw new Error('DATABASE_URL (a PostgreSQL server) is required: the scenario is PostgreSQL only')
  const dbName = `bench_webhooks_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${dbName}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${dbName}`
  const databaseUrl = url.toString()
  const receiver = new Receiver()
  try {
    await receiver.start()
    await run(databaseUrl, receiver)
  } finally {
    receiver.close()
    const drop = new pg.Client({ connectionString: adminUrl })
    await drop.connect()
    await drop.query(`drop database ${dbName} with (force)`)
    await drop.end()
  }
}

async function run(databaseUrl: string, receiver: Receiver): Promise<void> {
  // Secrets sealed as a production service keeps them (each claimed page opens its endpoint's).
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
  })
  const logger = pino({ level: 'warn' })
  const services = await openServices(config, logger)
  const { db } = services
  await seedDemoMarket(db)

  // The service's dispatcher gives way to one over a handle that counts its statements; it is woken
  // where the transfer operation wakes the service's (events.wake after each commit).
  await services.webhooks.close()
  const statements = new Map<string, number>()
  const countingDb: Db = db.withPlugin({
    transformQuery: ({ node }) => {
      const kind = statementKind(node)
      statements.set(kind, (statements.get(kind) ?? 0) + 1)
      return node
    },
    transformResult: async ({ result }) => result,
  })
  const dispatcher = new WebhookDispatcher(countingDb, logger, {
    allowHttp: true,
    allowPrivate: true,
    encryptionKey: config.keyEncryptionKey,
    retentionDays: config.eventRetentionDays,
    pollMs: 1000,
    ...(CONCURRENCY ? { concurrency: CONCURRENCY } : {}),
  })
  const statementCount = () => [...statements.values()].reduce((a, b) => a + b, 0)

  const tenants: string[] = []
  const clients: { client_id: string; scopes: string[] }[] = []
  const endpointTenant: number[] = []
  for (let t = 0; t < TENANTS; t++) {
    const client = await createClient(db, { name: `Webhook bank ${t}` })
    tenants.push(client.tenant_id)
    clients.push(client)
  }
  for (let i = 0; i < ENDPOINTS; i++) {
    const t = i % TENANTS
    const tenant = tenants[t]!
    endpointTenant.push(t)
    const now = storedTime(Date.now())
    const row = await insertEndpoint(
      db,
      {
        uid: crypto.randomUUID(),
        tenant_id: tenant,
        client_id: clients[t]!.client_id,
        scopes: clients[t]!.scopes,
        // Each tenant's endpoints on an address of its own (127.0.0.<tenant + 1>, all this host's
        // loopback): one bank, one host, as the sender's sockets per receiver are counted.
        url: `http://127.0.0.${t + 1}:${receiver.port}/${i}`,
        events: ['balance'],
        description: '',
        is_active: true,
        disabled_reason: null,
        secret: sealSecret(generateWebhookSecret(), config.keyEncryptionKey),
        previous_secret: null,
        previous_secret_expires_at: null,
        cursor: 0,
        next_attempt_at: null,
        created_at: now,
        updated_at: now,
      },
      10,
    )
    if (!row) throw new Error(`tenant ${t} is full: BENCH_WEBHOOK_ENDPOINTS ≤ 10 × BENCH_WEBHOOK_TENANTS`)
  }
  const endpointsOf = (t: number) => endpointTenant.filter((x) => x === t).length
  dispatcher.start()

  // Each tenant's first deposit, a real one: its event's body (after the sequence) is the template
  // of the `balance` events appended.
  const tails: string[] = []
  for (const tenant of tenants) {
    await transfer(db, { tenant_id: tenant, currency: 'USD', amount: '1', kind: 'deposit', reference: 'b-0' })
    const { payload } = await db
      .selectFrom('tenant_events')
      .select('payload')
      .where('tenant_id', '=', tenant)
      .orderBy('sequence', 'desc')
      .executeTakeFirstOrThrow()
    tails.push(payload.slice(payload.indexOf(',')))
  }
  let reference = 0
  /** One event of tenant `t`, committed. */
  async function write(t: number): Promise<void> {
    const tenant = tenants[t]!
    if (SOURCE === 'transfers') {
      await transfer(db, { tenant_id: tenant, currency: 'USD', amount: '1', kind: 'deposit', reference: `b-${++reference}` })
      return
    }
    const now = storedTime(Date.now())
    const rest = tails[t]!.replace(/"created_at":"[^"]*"/, `"created_at":"${formatTimestamp(now)}"`)
    await appendTenantEvents(db, [{ tenant_id: tenant, ordinal: 1, type: 'balance', rest }], now)
    await notifyEvents(db, [['accounts', tenantStream(tenant)].join(' ')])
  }

  // Events committed per tenant (after the first deposit), and what the endpoints must have received in all.
  const committed = new Array<number>(TENANTS).fill(1)
  const expected = () => committed.reduce((sum, n, t) => sum + n * endpointsOf(t), 0)
  let wakeDispatcher = true
  /**
   * Deposits paced at RATE per second for `seconds` (a producer that falls behind stops at the end
   * all the same, and shows in its achieved rate, not in an unbounded queue), or `count` of them
   * unpaced: how many were committed, and at what rate.
   */
  async function produce(work: { seconds: number } | { count: number }): Promise<{ committed: number; rate: number }> {
    const started = Date.now()
    const paced = 'seconds' in work
    const deadline = paced ? started + work.seconds * 1000 : Infinity
    const inFlight = new Set<Promise<void>>()
    let n = 0
    for (; paced ? Date.now() < deadline : n < work.count; n++) {
      if (paced) {
        const wait = started + (n * 1000) / RATE - Date.now()
        if (wait > 0) await sleep(wait)
        if (Date.now() >= deadline) break
      }
      const t = n % TENANTS
      const task = write(t).then(() => {
        committed[t]!++
        services.events.wake([tenantStream(tenants[t]!)])
        if (wakeDispatcher) dispatcher.wake()
      })
      inFlight.add(task)
      void task.finally(() => inFlight.delete(task))
      if (inFlight.size >= PRODUCER_CONCURRENCY) await Promise.race(inFlight)
    }
    await Promise.all(inFlight)
    return { committed: n, rate: n / ((Date.now() - started) / 1000) }
  }
  /** Waits until the receiver acknowledged `expected()` deliveries (or `limitMs` passed): when it was reached. */
  async function settle(limitMs: number): Promise<number | undefined> {
    const deadline = Date.now() + limitMs
    for (;;) {
      if ((await receiver.acked()) >= expected()) return Date.now()
      if (Date.now() > deadline) return undefined
      await sleep(20)
    }
  }

  // Order and duplicates over every arrival of the run, per endpoint.
  const lastSeen = new Array<number>(ENDPOINTS).fill(0)
  const acked = Array.from({ length: ENDPOINTS }, () => new Set<number>())
  let violations = 0
  let duplicates = 0
  let mismatches = 0
  function check(arrivals: Arrival[]): void {
    for (const [e, sequence, status, , mismatch] of arrivals) {
      // Retries repeat the sequence; anything lower than the last one tried is out of order.
      if (sequence < lastSeen[e]!) violations++
      lastSeen[e] = sequence
      mismatches += mismatch
      if (status !== 200) continue
      if (acked[e]!.has(sequence)) duplicates++
      acked[e]!.add(sequence)
    }
  }
  function lost(): number {
    let n = 0
    for (let e = 0; e < ENDPOINTS; e++) {
      const got = acked[e]!
      for (let s = 1; s <= committed[endpointTenant[e]!]!; s++) if (!got.has(s)) n++
    }
    return n
  }

  console.log(`webhooks: ${ENDPOINTS} endpoints of ${TENANTS} tenants on one local receiver (PostgreSQL), load ${load()}`)

  // 1. Steady.
  if (runs('steady')) {
    await produce({ seconds: 1 }) // warm-up: connections, JIT
    await settle(30_000)
    check(await receiver.take())
    const before = { stmts: statementCount(), cpu: process.cpuUsage(), pgCpu: await databaseCpuMs(databaseUrl), at: Date.now(), expected: expected() }
    const steadyRun = await produce({ seconds: DURATION })
    const reached = await settle(60_000)
    const steady = await receiver.take()
    check(steady)
    const delivered = expected() - before.expected
    const wall = ((reached ?? Date.now()) - before.at) / 1000
    const cpu = process.cpuUsage(before.cpu)
    const pgCpu = (await databaseCpuMs(databaseUrl)) - before.pgCpu
    const latencies = steady.filter((a) => a[2] === 200).map((a) => a[3])
    latencies.sort((a, b) => a - b)
    console.log(
      `steady: ${steadyRun.committed} events committed at ${steadyRun.rate.toFixed(0)}/s (paced at ${RATE}/s) for ${DURATION} s → ${delivered} deliveries (${(delivered / wall).toFixed(0)}/s)` +
        (reached ? '' : ' NOT ALL DELIVERED within 60 s'),
    )
    console.log(
      `  latency from created_at: p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms; ` +
        `duplicates ${duplicates}, order violations ${violations}, lost ${lost()}`,
    )
    console.log(
      `  dispatcher statements per delivery ${((statementCount() - before.stmts) / delivered).toFixed(2)}; CPU per delivery (producer + dispatcher) ` +
        `${((cpu.user + cpu.system) / delivered).toFixed(0)} µs, PostgreSQL ${((pgCpu * 1000) / delivered).toFixed(0)} µs; load ${load()}`,
    )
  }

  // 2. Backlog: the dispatcher alone.
  if (runs('backlog')) {
    dispatcher.stop()
    wakeDispatcher = false
    const backlogRun = await produce({ count: BACKLOG })
    statements.clear()
    const b = {
      cpu: process.cpuUsage(),
      pgCpu: await databaseCpuMs(databaseUrl),
      at: Date.now(),
      expected: expected(),
      acked: await receiver.acked(),
      receiverCpu: cpuMs(receiver.pid),
    }
    wakeDispatcher = true
    dispatcher.start()
    const drained = await settle(120_000)
    const backlogDelivered = (await receiver.acked()) - b.acked
    const bCpu = process.cpuUsage(b.cpu)
    const bPg = (await databaseCpuMs(databaseUrl)) - b.pgCpu
    check(await receiver.take())
    const bWall = ((drained ?? Date.now()) - b.at) / 1000
    console.log(
      `backlog: ${BACKLOG} events (${backlogDelivered} deliveries; committed unpaced at ${backlogRun.rate.toFixed(0)}/s with no delivery running) waiting, then the dispatcher started: delivered in ${bWall.toFixed(1)} s ` +
        `(${(backlogDelivered / bWall).toFixed(0)}/s)${drained ? '' : ' NOT ALL within 120 s'}`,
    )
    console.log(
      `  per delivery: ${(statementCount() / backlogDelivered).toFixed(2)} statements, CPU ${((bCpu.user + bCpu.system) / backlogDelivered).toFixed(0)} µs here ` +
        `(sender + dispatcher), PostgreSQL ${((bPg * 1000) / backlogDelivered).toFixed(0)} µs, receiver ${(((cpuMs(receiver.pid) - b.receiverCpu) * 1000) / backlogDelivered).toFixed(0)} µs; load ${load()}`,
    )
    console.log(`  statements: ${[...statements].map(([k, n]) => `${k} ${n}`).join(', ')}`)
  }

  // 3. Outage.
  if (runs('outage')) {
    console.log(`outage: the receiver answers 503 for ${OUTAGE} s while events come at ${RATE}/s, then 200`)
    receiver.setUp(false)
    const downAt = Date.now()
    const outageRun = await produce({ seconds: OUTAGE })
    await sleep(Math.max(0, downAt + OUTAGE * 1000 - Date.now()))
    receiver.setUp(true)
    const upAt = Date.now()
    // Endpoints retry on their schedule (5 s, 30 s, 2 m, …): the first try after the receiver is back
    // is the one 2 m 35 s after the first failure, for an outage of 60 s.
    const caughtUp = await settle(15 * 60_000)
    check(await receiver.take())
    console.log(
      `  ${outageRun.committed} events committed during it (${outageRun.rate.toFixed(0)}/s); every delivery in ${caughtUp ? `${((caughtUp - upAt) / 1000).toFixed(1)} s` : 'NOT within 15 min'} ` +
        `after the receiver was back; lost ${lost()}, order violations ${violations}, duplicates ${duplicates} (webhook-id ≠ body ${mismatches}); load ${load()}`,
    )
  }

  await dispatcher.close()
  await closeServices(services)
}

/** A statement's kind for the tally: its verb and first table. */
function statementKind(node: { kind: string }): string {
  const n = node as {
    kind: string
    table?: { table?: { identifier?: { name?: string } } }
    from?: { froms?: { table?: { identifier?: { name?: string } } }[] }
    sqlFragments?: readonly string[]
  }
  if (n.kind === 'RawNode') return `raw ${(n.sqlFragments ?? []).join('?').replace(/\s+/g, ' ').trim().slice(0, 40)}`
  const table = n.table?.table?.identifier?.name ?? n.from?.froms?.[0]?.table?.identifier?.name ?? ''
  return `${n.kind.replace('QueryNode', '').toLowerCase()} ${table}`
}

await main()
