/**
 * The `instances` scenario (PostgreSQL only): crossing orders on one symbol through one service
 * instance and through two instances sharing the database, measured side by side in alternating
 * runs, on an empty book and on a deep one (20,000 resting orders no crossing order reaches).
 * Each run is two autocannon loads of half the connections at once: both against the first
 * instance, or one against each. Reports the two-instance rate as a ratio of the one-instance rate
 * (goal ≥ 0.9×, docs/matching.md).
 */
import autocannon from 'autocannon'
import pg from 'pg'

export const DEEP_BOOK_ORDERS = 20_000
// The deep book's symbol and where its resting sells sit: far above every crossing order's price.
export const DEEP_SYMBOL = 'BTC-USDT'

/** Stores the deep book's resting sells as matching passes would have, before any instance starts. */
export async function seedDeepBook(databaseUrl: string, seller: { client_id: string; tenant_id: string }): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(
      `insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status, seq, hold, hold_currency)
       select gen_random_uuid(), $1, $2::uuid, $3, 'sell', 'limit', 0.01, 75000 + (i % 1000), 'open', i, 0.01, s.base
       from generate_series(1, $4::int) as i join symbols s on s.symbol = $3`,
      [seller.client_id, seller.tenant_id, DEEP_SYMBOL, DEEP_BOOK_ORDERS],
    )
    // Each holds its quantity of the seller's base currency (docs/accounts.md).
    await client.query(
      `update accounts a set hold = hold + 0.01 * $3::int from symbols s
       where s.symbol = $2 and a.tenant_id = $1::uuid and a.currency = s.base`,
      [seller.tenant_id, DEEP_SYMBOL, DEEP_BOOK_ORDERS],
    )
    await client.query(
      `insert into symbol_books (symbol, last_order_seq) values ($1, $2)
       on conflict (symbol) do update set last_order_seq = excluded.last_order_seq`,
      [DEEP_SYMBOL, DEEP_BOOK_ORDERS],
    )
  } finally {
    await client.end()
  }
}

export interface InstancesRun {
  book: 'empty' | 'deep'
  instances: 1 | 2
  requestsPerSec: number
  p99: number
  errors: number
  /** CPU per order of both service processes (one idles in the one-instance runs) and of PostgreSQL, µs. */
  serviceCpuUs: number
  databaseCpuUs: number
}

interface Options {
  urls: [string, string]
  connections: number
  durationSeconds: number
  warmupSeconds: number
  buyer: Record<string, string>
  seller: Record<string, string>
  /** Alternating pairs per book. */
  pairs: number
  /** CPU time so far (ms) of both service processes and of the database's backends. */
  cpu: () => Promise<{ service: number; database: number }>
}

const crossing = (symbol: string, price: string, side: 'buy' | 'sell') => JSON.stringify({ symbol, side, type: 'limit', quantity: '0.01', price })

async function load(urls: string[], o: Options, symbol: string, price: string, duration: number): Promise<Omit<InstancesRun, 'book' | 'instances'>> {
  const before = await o.cpu()
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        connections: Math.max(1, Math.floor(o.connections / urls.length)),
        pipelining: 1,
        duration,
        requests: [
          { method: 'POST', path: '/api/exchange/v1/orders', headers: o.buyer, body: crossing(symbol, price, 'buy') },
          { method: 'POST', path: '/api/exchange/v1/orders', headers: o.seller, body: crossing(symbol, price, 'sell') },
        ],
      }),
    ),
  )
  const after = await o.cpu()
  const orders = Math.max(
    1,
    results.reduce((sum, r) => sum + r.requests.total, 0),
  )
  return {
    requestsPerSec: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
    serviceCpuUs: Math.round(((after.service - before.service) * 1000) / orders),
    databaseCpuUs: Math.round(((after.database - before.database) * 1000) / orders),
  }
}

export async function measureInstances(o: Options): Promise<InstancesRun[]> {
  const runs: InstancesRun[] = []
  const books = [
    { book: 'empty' as const, symbol: 'ETH-USDT', price: '3000.00' },
    { book: 'deep' as const, symbol: DEEP_SYMBOL, price: '65000.00' },
  ]
  for (const { book, symbol, price } of books) {
    // Both instances have matched the symbol once: what is measured is the steady state.
    await load(o.urls, o, symbol, price, o.warmupSeconds)
    for (let pair = 0; pair < o.pairs; pair++) {
      for (const instances of [1, 2] as const) {
        const urls = instances === 1 ? [o.urls[0], o.urls[0]] : o.urls
        process.stderr.write(`running: instances, ${book} book, ${instances} instance(s), pair ${pair + 1}\n`)
        runs.push({ book, instances, ...(await load(urls, o, symbol, price, o.durationSeconds)) })
      }
    }
  }
  return runs
}

export function formatInstances(runs: InstancesRun[]): string {
  const lines = [
    '\nMany instances (crossing orders on one symbol; runs alternate one instance, two instances):',
    '',
    '| book | instances | req/s | p99 ms | errors | service CPU µs/order | database CPU µs/order |',
    '|---|---|---|---|---|---|---|',
  ]
  for (const r of runs) {
    lines.push(`| ${r.book} | ${r.instances} | ${r.requestsPerSec} | ${r.p99} | ${r.errors} | ${r.serviceCpuUs} | ${r.databaseCpuUs} |`)
  }
  lines.push('')
  for (const book of ['empty', 'deep'] as const) {
    const one = runs.filter((r) => r.book === book && r.instances === 1)
    const two = runs.filter((r) => r.book === book && r.instances === 2)
    const ratios = two.map((r, i) => (r.requestsPerSec / one[i]!.requestsPerSec).toFixed(3))
    const total = (rs: InstancesRun[]) => rs.reduce((sum, r) => sum + r.requestsPerSec, 0)
    const ratio = total(two) / total(one)
    lines.push(`${book} book: two instances / one = ${ratio.toFixed(3)}× (pairs: ${ratios.join(', ')}); goal ≥ 0.9×: ${ratio >= 0.9 ? 'met' : 'not met'}`)
  }
  return `${lines.join('\n')}\n`
}
