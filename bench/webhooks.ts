/**
 * Webhooks scenario (docs/performance.md, "Scenarios and goals"): 100 endpoints (one per tenant)
 * on one local node:http receiver, tenant events committed at BENCH_WEBHOOK_RATE per second (500)
 * for BENCH_DURATION seconds (10): delivery latency from commit (the event's `created_at`) to
 * arrival, p50/p99. Then the receiver goes down for BENCH_WEBHOOK_OUTAGE seconds (60) while events
 * keep coming, comes back, and every event must arrive, in order per endpoint, none lost.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/webhooks.ts
 *
 * The service runs in this process (its dispatcher, the same code as a server's); events are
 * deposits, each a `balance` event of its tenant, woken as the transfer operation wakes them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

import pg from 'pg'
import pino from 'pino'

import { closeServices, openServices } from '../src/app/services.ts'
import { loadConfig } from '../src/core/config.ts'
import { createClient } from '../src/modules/auth/clients/clients.ts'
import { transfer } from '../src/modules/exchange/accounts/accounts.ts'
import { tenantStream } from '../src/modules/exchange/event-log/event-log.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { generateWebhookSecret } from '../src/modules/exchange/webhooks/webhook-secrets.ts'
import { insertEndpoint } from '../src/modules/exchange/webhooks/webhooks.repository.ts'

const env = process.env
const ENDPOINTS = 100
const RATE = Number(env.BENCH_WEBHOOK_RATE ?? 500)
const DURATION = Number(env.BENCH_DURATION ?? 10)
const OUTAGE = Number(env.BENCH_WEBHOOK_OUTAGE ?? 60)

async function main(): Promise<void> {
  let dataDir: string | undefined
  let dbName: string | undefined
  let databaseUrl = env.DATABASE_URL
  if (databaseUrl) {
    dbName = `bench_webhooks_${process.pid}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    await admin.query(`create database ${dbName}`)
    await admin.end()
    const url = new URL(databaseUrl)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-'))
  }
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' })
  const services = await openServices(config, pino({ level: 'silent' }))
  const { db } = services
  await seedDemoMarket(db)

  // Per endpoint (its path): the sequences received, in arrival order.
  const received = new Map<string, number[]>()
  const latencies: number[] = []
  let up = true
  let measuring = true
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sequence: number; created_at: string }
      const list = received.get(req.url!) ?? []
      list.push(body.sequence)
      received.set(req.url!, list)
      if (measuring) latencies.push(at - Date.parse(`${body.created_at}Z`))
      res.writeHead(up ? 200 : 503)
      res.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const port = (receiver.address() as AddressInfo).port

  const tenants: string[] = []
  for (let i = 0; i < ENDPOINTS; i++) {
    const client = await createClient(db, { name: `Webhook bank ${i}` })
    tenants.push(client.tenant_id)
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '')
    await insertEndpoint(
      db,
      {
        uid: crypto.randomUUID(),
        tenant_id: client.tenant_id,
        client_id: client.client_id,
        scopes: client.scopes,
        url: `http://127.0.0.1:${port}/${i}`,
        events: ['balance'],
        description: '',
        is_active: true,
        disabled_reason: null,
        secret: generateWebhookSecret(),
        previous_secret: null,
        previous_secret_expires_at: null,
        cursor: 0,
        next_attempt_at: null,
        created_at: now,
        updated_at: now,
      },
      10,
    )
  }

  const sent = new Map<string, number>()
  let reference = 0
  /** Deposits at RATE per second for `seconds`, spread over the tenants; how many were committed. */
  async function produce(seconds: number): Promise<void> {
    const started = Date.now()
    const total = Math.round(RATE * seconds)
    const inFlight = new Set<Promise<void>>()
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE
      const wait = due - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      const tenant = tenants[n % tenants.length]!
      const task = transfer(db, { tenant_id: tenant, currency: 'USD', amount: '1', kind: 'deposit', reference: `b-${++reference}` }).then(() => {
        sent.set(tenant, (sent.get(tenant) ?? 0) + 1)
        services.events.wake([tenantStream(tenant)])
      })
      inFlight.add(task)
      void task.finally(() => inFlight.delete(task))
      // A producer that cannot keep up is reported by its achieved rate, not by unbounded queues.
      if (inFlight.size >= 64) await Promise.race(inFlight)
    }
    await Promise.all(inFlight)
    const took = (Date.now() - started) / 1000
    console.log(`  committed ${total} events in ${took.toFixed(1)} s (${Math.round(total / took)}/s)`)
  }

  const all = () => [...received.values()].reduce((n, list) => n + new Set(list).size, 0)
  const committed = () => [...sent.values()].reduce((a, b) => a + b, 0)
  const settle = async (limitMs: number) => {
    const deadline = Date.now() + limitMs
    while (all() < committed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  }

  console.log(`webhooks: ${ENDPOINTS} endpoints, ${RATE} events/s for ${DURATION} s (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`)
  await produce(DURATION)
  await settle(30_000)
  measuring = false
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN
  console.log(`  delivered ${latencies.length}; latency from commit p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1)} ms`)

  console.log(`outage: receiver answers 503 for ${OUTAGE} s while events keep coming, then 200`)
  up = false
  const outageEnd = Date.now() + OUTAGE * 1000
  await produce(Math.min(OUTAGE, 5))
  await new Promise((r) => setTimeout(r, Math.max(0, outageEnd - Date.now())))
  up = true
  const back = Date.now()
  // The endpoints retry on their schedule (5 s, 30 s, 2 m, …): everything comes after the next try.
  await settle(15 * 60_000)
  let lost = 0
  let outOfOrder = 0
  for (const [i, tenant] of tenants.entries()) {
    const list = received.get(`/${i}`) ?? []
    const firsts = [...new Set(list)]
    lost += (sent.get(tenant) ?? 0) - firsts.length
    if (firsts.some((s, k) => k > 0 && s < firsts[k - 1]!)) outOfOrder++
  }
  console.log(`  all delivered ${((Date.now() - back) / 1000).toFixed(1)} s after the receiver came back; lost ${lost}, endpoints out of order ${outOfOrder}`)

  receiver.close()
  await closeServices(services)
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  if (dbName) {
    const admin = new pg.Client({ connectionString: env.DATABASE_URL })
    await admin.connect()
    await admin.query(`drop database ${dbName} with (force)`)
    await admin.end()
  }
}

await main()
