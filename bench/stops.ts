/**
 * node --import tsx bench/stops.ts [TREE] — stop orders' cost (docs/matching.md, "Stop orders and
 * good till date"), measured in process on the embedded database (or DATABASE_URL's PostgreSQL):
 *
 * - `trigger`: 1,000 pending stop-limit buys, then one trade that triggers them all in one pass,
 *   each then trading; prints the pass's time and the event loop's largest and 99th percentile
 *   delay while it ran (monitorEventLoopDelay, sampled every millisecond).
 * - `rest`: the same, but each triggered stop's limit price is below every ask: they only rest.
 * - `sweep`: for scale, one order taking 1,000 resting asks in one pass, no stop involved.
 * - `plain`: BENCH_STOPS_ORDERS (default 1,000) limit orders crossing in pairs, no stop pending:
 *   orders per second. Run with TREE, another checkout's root (e.g. `git archive` of the base
 *   commit), to compare the same workload on the code before stops; alternate the two runs in
 *   pairs, as bench/run.ts does, since this machine's speed drifts within a minute.
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TREE = path.resolve(process.argv[2] ?? ROOT)
const ORDERS = Number(process.env.BENCH_STOPS_ORDERS ?? 1000)
const STOPS = 1000

const { loadConfig } = await import(path.join(TREE, 'src/core/config.ts'))
const { openServices, closeServices } = await import(path.join(TREE, 'src/app/services.ts'))
const { createLogger } = await import(path.join(TREE, 'src/observability/logger.ts'))
const { parseDecimal } = await import(path.join(TREE, 'src/core/decimal.ts'))
const { createMarket } = await import(path.join(ROOT, 'test/helpers/markets.ts'))
const { fundTenants } = await import(path.join(ROOT, 'test/helpers/funding.ts'))

const { createTestDatabase } = await import(path.join(ROOT, 'test/helpers/database.ts'))
// A throwaway database: a temporary DATA_DIR, or a new database on DATABASE_URL's server.
const database = await createTestDatabase()
const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...database.env })
const services = await openServices(config, createLogger(config))
const db = services.db

// Two trading tenants and the stops' own (1,000 stops fill MAX_OPEN_ORDERS_PER_SYMBOL's default).
const tenants = [randomUUID(), randomUUID(), randomUUID()]
for (const id of tenants)
  await db
    .insertInto('tenants')
    .values({ id, name: `bench ${id.slice(0, 8)}` })
    .execute()

const decimal = (text: string) => ({ text, value: parseDecimal(text) })
const place = (symbol: string, tenant: string, side: 'buy' | 'sell', quantity: string, price: string | null, extra: Record<string, unknown> = {}) =>
  services.matching.place({
    uid: randomUUID(),
    userId: 'bench',
    tenantId: tenant,
    clientOrderId: null,
    symbol,
    side,
    type: price === null ? 'market' : 'limit',
    quantity: decimal(quantity),
    price: price === null ? null : decimal(price),
    timeInForce: price === null ? 'ioc' : 'gtc',
    postOnly: false,
    parsed: { fields: {}, invalid: new Set() },
    ...extra,
  })

async function market(): Promise<string> {
  const symbol = await createMarket(db, {}, { funded: false })
  await fundTenants(db, tenants, symbol.split('-'))
  return symbol
}

async function plain(): Promise<number> {
  const symbol = await market()
  const started = performance.now()
  const batch: Promise<unknown>[] = []
  for (let i = 0; i < ORDERS / 2; i++) {
    const price = (10 + (i % 50) / 100).toFixed(2)
    batch.push(place(symbol, tenants[0]!, 'sell', '1', price), place(symbol, tenants[1]!, 'buy', '1', price))
    if (batch.length >= 100) await Promise.all(batch.splice(0))
  }
  await Promise.all(batch)
  return ORDERS / ((performance.now() - started) / 1000)
}

async function trigger(limit: string): Promise<{ passMs: number; maxDelayMs: number; p99DelayMs: number; triggered: number }> {
  const symbol = await market()
  const pending: Promise<unknown>[] = []
  for (let i = 0; i < STOPS; i++) {
    const stop = (10 + (i % 100) / 100).toFixed(2)
    pending.push(place(symbol, tenants[2]!, 'buy', '1', limit, { type: 'stop_limit', stopPrice: decimal(stop) }))
    if (pending.length >= 100) await Promise.all(pending.splice(0))
  }
  await Promise.all(pending)
  await place(symbol, tenants[0]!, 'sell', String(STOPS), '15.00')
  await place(symbol, tenants[0]!, 'sell', '1', '11.00')
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const started = performance.now()
  await place(symbol, tenants[1]!, 'buy', '1', '11.00')
  const passMs = performance.now() - started
  delay.disable()
  const row = await db
    .selectFrom('orders')
    .select(db.fn.countAll().as('n'))
    .where('symbol', '=', symbol)
    .where('type', '=', 'stop_limit')
    .where('status', '!=', 'pending')
    .executeTakeFirstOrThrow()
  return { passMs, maxDelayMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6, triggered: Number(row.n) }
}

/** For scale: one limit buy sweeping 1,000 resting asks in one pass, no stop involved. */
async function sweep(): Promise<{ passMs: number; maxDelayMs: number }> {
  const symbol = await market()
  const asks: Promise<unknown>[] = []
  for (let i = 0; i < STOPS; i++) {
    asks.push(place(symbol, tenants[0]!, 'sell', '1', (15 + (i % 100) / 100).toFixed(2)))
    if (asks.length >= 100) await Promise.all(asks.splice(0))
  }
  await Promise.all(asks)
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const started = performance.now()
  await place(symbol, tenants[1]!, 'buy', String(STOPS), '16.00')
  const passMs = performance.now() - started
  delay.disable()
  return { passMs, maxDelayMs: delay.max / 1e6 }
}

try {
  const only = process.env.BENCH_ONLY ?? 'plain,trigger,rest'
  if (only.includes('plain')) console.log(`plain (${TREE === ROOT ? 'this tree' : TREE}): ${(await plain()).toFixed(0)} orders/s`)
  for (const [name, limit, then] of [
    ['trigger', '20.00', 'trading'],
    ['rest', '12.00', 'resting'],
  ] as const) {
    if (!only.includes(name) || TREE !== ROOT) continue
    const result = await trigger(limit)
    console.log(
      `${name}: ${result.triggered} stops triggered (then ${then}) in one pass of ${result.passMs.toFixed(0)} ms; event loop delay max ${result.maxDelayMs.toFixed(1)} ms, p99 ${result.p99DelayMs.toFixed(1)} ms`,
    )
  }
  if (only.includes('sweep')) {
    const result = await sweep()
    console.log(`sweep: 1000 asks taken by one order in one pass of ${result.passMs.toFixed(0)} ms; event loop max delay ${result.maxDelayMs.toFixed(1)} ms`)
  }
} finally {
  await closeServices(services)
  await database.drop()
}
