import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { createMarket } from './helpers/markets.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

/**
 * Two server processes on one PostgreSQL database take crossing orders of one symbol at once:
 * whichever process takes an order, one process at a time matches the symbol, and afterwards every
 * invariant holds over what is stored. PGlite serves one process, so this needs PostgreSQL.
 */
describe.skipIf(!onPostgres)('matching through two processes on one PostgreSQL database', () => {
  let a: TestServer
  let b: ServerProcess
  let clients: TestClient[]

  beforeAll(async () => {
    a = await startTestServer()
    await seedDemoMarket(a.services.db)
    b = await startServerProcess({ DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
    clients = await Promise.all([createTestClient(a), createTestClient(a), createTestClient(a)])
  }, 90_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  /** An order as stored, given what its own matching pass answered: later passes may only fill it further. */
  function expectStoredAfter(stored: { status: string; filled_quantity: string } | undefined, answered: { status: string; filled_quantity: string }) {
    expect(stored).toBeDefined()
    if (answered.status === 'filled' || answered.status === 'cancelled')
      expect(stored).toMatchObject({ status: answered.status, filled_quantity: answered.filled_quantity })
    else {
      expect(['open', 'partially_filled', 'filled']).toContain(stored!.status)
      expect(Number(stored!.filled_quantity)).toBeGreaterThanOrEqual(Number(answered.filled_quantity))
    }
  }

  const post = (base: string, client: TestClient, body: unknown) =>
    fetch(`${base}/api/exchange/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${client.token}` },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }))

  it('keeps every invariant for hundreds of crossing orders placed at once on both processes', { timeout: 120_000 }, async () => {
    const symbol = await createMarket(a.services.db, { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' })
    let n = 0
    const bodies = Array.from({ length: 400 }, () => {
      const i = n++
      const side = i % 2 === 0 ? 'buy' : 'sell'
      // Prices around 100 from both sides, so most orders cross; a few market orders.
      const price = (side === 'buy' ? 1000 + (i % 7) : 1003 - (i % 7)) / 10
      return i % 23 === 0
        ? { client: clients[i % 3]!, body: { symbol, side, type: 'market', quantity: ((i % 9) + 1) / 10 + '' } }
        : {
            client: clients[i % 3]!,
            body: { symbol, side, type: 'limit', quantity: ((i % 13) + 1) / 10 + '', price: price.toFixed(1), client_order_id: `c-${i}` },
          }
    })
    const responses = await Promise.all(bodies.map(({ client, body }, i) => post(i % 2 === 0 ? a.url : b.url, client, body)))
    expect(responses.filter((r) => r.status !== 201)).toEqual([])

    const db = a.services.db
    const orders = await db.selectFrom('orders').selectAll().where('symbol', '=', symbol).execute()
    const fills = await db.selectFrom('fills').selectAll().where('symbol', '=', symbol).execute()
    const trades = await db.selectFrom('trades').selectAll().where('symbol', '=', symbol).orderBy('sequence').execute()
    expect(orders).toHaveLength(400)
    expect(trades.length).toBeGreaterThan(50)
    const byUid = new Map(orders.map((o) => [o.uid, o]))
    const tenths = (value: string) => Math.round(Number(value) * 10)

    // Every answer is the order as its own pass left it: final states as stored, resting ones at most as filled.
    for (const res of responses) expectStoredAfter(byUid.get(res.body.uid), res.body)
    // filled_quantity = Σ its fills ≤ quantity; filled exactly when equal.
    for (const order of orders) {
      const sum = fills.filter((f) => f.order_uid === order.uid).reduce((s, f) => s + tenths(f.quantity), 0)
      expect(tenths(order.filled_quantity)).toBe(sum)
      expect(sum).toBeLessThanOrEqual(tenths(order.quantity))
      expect(order.status === 'filled').toBe(sum === tenths(order.quantity))
    }
    // Buy-side fills equal sell-side fills; each trade at its maker's price, within the taker's limit, across tenants.
    const side = (s: 'buy' | 'sell') => fills.filter((f) => f.side === s).reduce((sum, f) => sum + tenths(f.quantity), 0)
    expect(side('buy')).toBe(side('sell'))
    for (const trade of trades) {
      const maker = byUid.get(trade.maker_order_uid)!
      const taker = byUid.get(trade.taker_order_uid)!
      expect(maker.tenant_id).not.toBe(taker.tenant_id)
      expect(tenths(trade.price)).toBe(tenths(maker.price!))
      if (taker.price !== null)
        expect(taker.side === 'buy' ? tenths(trade.price) <= tenths(taker.price) : tenths(trade.price) >= tenths(taker.price)).toBe(true)
      expect(maker.seq).toBeLessThan(taker.seq)
    }
    // Market sequences are gapless per symbol, trade sequences increase in acceptance order of takers.
    const takerSeqs = trades.map((t) => byUid.get(t.taker_order_uid)!.seq)
    expect(takerSeqs).toEqual([...takerSeqs].sort((x, y) => x - y))
    // The resting book never crosses: an order that would cross either trades or, meeting its own
    // tenant's order first, is cancelled.
    const resting = orders.filter((o) => o.status === 'open' || o.status === 'partially_filled')
    const bestBid = Math.max(...resting.filter((o) => o.side === 'buy').map((o) => tenths(o.price!)))
    const bestAsk = Math.min(...resting.filter((o) => o.side === 'sell').map((o) => tenths(o.price!)))
    expect(bestBid).toBeLessThan(bestAsk)
    const book = await db.selectFrom('symbol_books').selectAll().where('symbol', '=', symbol).executeTakeFirstOrThrow()
    expect(book.trade_count).toBe(trades.length)
    expect(Math.max(...orders.map((o) => o.seq))).toBe(book.last_order_seq)
    expect(new Set(orders.map((o) => o.seq)).size).toBe(400)
    expect((await checkAccounts(db)).discrepancies).toEqual([])
    // Each process widens the minute's candle it last wrote without reading it while nobody else
    // wrote since, and reads it otherwise: the stored 1m candles equal the trades, minute by minute.
    const { rows: fromTrades } = await sql<Record<string, string>>`
      select to_char(date_trunc('minute', created_at), 'YYYY-MM-DD HH24:MI') as minute, count(*)::text as trade_count,
        sum(quantity)::text as volume, sum(price * quantity)::text as quote_volume, max(price)::text as high, min(price)::text as low,
        (array_agg(price::text order by sequence))[1] as open, (array_agg(price::text order by sequence desc))[1] as close
      from trades where symbol = ${symbol} group by 1 order by 1`.execute(db)
    const { rows: candles } = await sql<Record<string, string>>`
      select to_char(open_time, 'YYYY-MM-DD HH24:MI') as minute, trade_count::text, volume::text, quote_volume::text, high::text,
        low::text, open::text, close::text
      from candles where symbol = ${symbol} and interval = '1m' order by open_time`.execute(db)
    const numeric = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'minute' ? v : Number(v)])))
    expect(numeric(candles)).toEqual(numeric(fromTrades))
    // And each minute's last `candle` event carries the candle as stored.
    const events = await db.selectFrom('market_events').select(['sequence', 'payload']).where('symbol', '=', symbol).where('type', '=', 'candle').execute()
    const lastOfMinute = new Map<string, Record<string, unknown>>()
    for (const event of events.sort((x, y) => Number(x.sequence) - Number(y.sequence))) {
      const { candle } = JSON.parse(event.payload) as { candle: Record<string, string | number> }
      const { open_time, open, high, low, close, volume, quote_volume, trade_count } = candle
      const minute = String(open_time).slice(0, 16).replace('T', ' ')
      // Every trade's event counts the trades of its minute so far, whichever process wrote them.
      expect(trade_count).toBe(Number(lastOfMinute.get(minute)?.trade_count ?? 0) + 1)
      lastOfMinute.set(minute, { open, high, low, close, volume, quote_volume, trade_count })
    }
    expect(numeric([...lastOfMinute].map(([minute, c]) => ({ minute, ...c })))).toEqual(
      numeric(
        candles.map(({ minute, open, high, low, close, volume, quote_volume, trade_count }) => ({
          minute,
          open,
          high,
          low,
          close,
          volume,
          quote_volume,
          trade_count,
        })),
      ),
    )
  })

  it("renders each trade's candle event from the candle as stored when the two processes take turns", { timeout: 120_000 }, async () => {
    const symbol = await createMarket(a.services.db, { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' })
    const [maker, taker] = clients
    // Each trade is matched by the other process than the one before: a process's own last write
    // is then never the latest, and it must read the minute's candle rather than widen its copy.
    for (let i = 0; i < 12; i++) {
      const base = i % 2 === 0 ? a.url : b.url
      expect((await post(base, maker!, { symbol, side: 'sell', type: 'limit', quantity: '0.1', price: `${100 + i}.0` })).status).toBe(201)
      expect((await post(base, taker!, { symbol, side: 'buy', type: 'limit', quantity: '0.1', price: `${100 + i}.0` })).body.status).toBe('filled')
    }
    const events = await a.services.db
      .selectFrom('market_events')
      .select(['sequence', 'payload'])
      .where('symbol', '=', symbol)
      .where('type', '=', 'candle')
      .orderBy('sequence')
      .execute()
    expect(events).toHaveLength(12)
    const counts = new Map<string, number>()
    for (const event of events) {
      const { candle } = JSON.parse(event.payload) as { candle: { open_time: string; trade_count: number } }
      counts.set(candle.open_time, (counts.get(candle.open_time) ?? 0) + 1)
      expect(candle.trade_count).toBe(counts.get(candle.open_time))
    }
  })

  it('has every order answered 201 stored and matched, even when the process that took it dies right after', { timeout: 120_000 }, async () => {
    const symbol = await createMarket(a.services.db)
    const victim = await startServerProcess({ DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
    const answered: any[] = []
    let firstAnswer!: () => void
    const answeredOnce = new Promise<void>((resolve) => (firstAnswer = resolve))
    const sends = Array.from({ length: 200 }, (_, i) =>
      post(victim.url, clients[i % 2]!, { symbol, side: i % 2 === 0 ? 'buy' : 'sell', type: 'limit', quantity: '1', price: '10.00' })
        .then((res) => {
          if (res.status !== 201) return
          answered.push(res.body)
          firstAnswer()
        })
        .catch(() => {}),
    )
    // Killed as soon as it has answered once, with the other orders in flight: no chance to finish anything.
    await answeredOnce
    await victim.stop('SIGKILL')
    await Promise.all(sends)
    expect(answered.length).toBeGreaterThan(0)
    expect(answered.length).toBeLessThan(200)
    for (const order of answered) expectStoredAfter(await a.services.db.selectFrom('orders').selectAll().where('uid', '=', order.uid).executeTakeFirst(), order)
    // The survivor matches the symbol at once: the dead process held no lock.
    const res = await post(a.url, clients[2]!, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' })
    expect(res.status).toBe(201)
    const crossing = await sql<{ n: number }>`
      select count(*)::int as n from orders b join orders s on s.symbol = b.symbol and s.side = 'sell' and b.side = 'buy'
      where b.symbol = ${symbol} and b.status in ('open', 'partially_filled') and s.status in ('open', 'partially_filled')
        and b.price >= s.price and b.tenant_id <> s.tenant_id`.execute(a.services.db)
    expect(crossing.rows[0]!.n).toBe(0)
    // Money too: whatever the killed process had in flight was written whole or not at all.
    expect((await checkAccounts(a.services.db)).discrepancies).toEqual([])
  })
  it('resolves an amend racing a fill of the same order on the other process to one consistent outcome', { timeout: 120_000 }, async () => {
    const symbol = await createMarket(a.services.db)
    const [seller, buyer] = clients as [TestClient, TestClient]
    const request = (base: string, client: TestClient, method: string, path: string, body?: unknown) =>
      fetch(`${base}/api/exchange/v1/orders${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${client.token}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }))
    const outcomes = new Set<string>()
    for (let round = 0; round < 12; round++) {
      const ask = await post(a.url, seller, { symbol, side: 'sell', type: 'limit', quantity: '2', price: '10.00' })
      expect(ask.status).toBe(201)
      // The amend goes through one process, the crossing buy (1.5 of the 2) through the other, at once.
      const [amended, bid] = await Promise.all([
        request(round % 2 ? a.url : b.url, seller, 'PATCH', `/${ask.body.uid}`, { quantity: '1' }),
        post(round % 2 ? b.url : a.url, buyer, { symbol, side: 'buy', type: 'limit', quantity: '1.5', price: '10.00' }),
      ])
      expect(bid.status).toBe(201)
      const stored = (await request(a.url, seller, 'GET', `/${ask.body.uid}`)).body
      if (amended.status === 200) {
        // The amend first: the order was 1, and the buy took all of it.
        outcomes.add('amend first')
        expect(stored).toMatchObject({ quantity: '1', filled_quantity: '1.00', status: 'filled' })
        expect(bid.body).toMatchObject({ filled_quantity: '1.00', status: 'partially_filled' })
      } else {
        // The fill first: 1.5 of 2 filled, and 1 is not above that.
        outcomes.add('fill first')
        expect(amended.status).toBe(422)
        expect(amended.body.detail[0]).toMatchObject({ type: 'value_error.number.not_gt', ctx: { limit_value: '1.50' } })
        expect(stored).toMatchObject({ quantity: '2', filled_quantity: '1.50', status: 'partially_filled' })
        expect(bid.body).toMatchObject({ filled_quantity: '1.50', status: 'filled' })
      }
      for (const client of [seller, buyer]) expect((await request(b.url, client, 'DELETE', `?symbol=${symbol}`)).status).toBe(200)
    }
    expect(outcomes.size).toBeGreaterThanOrEqual(1)
    const fills = await sql<{ uid: string; filled: string; sum: string }>`
      select o.uid, o.filled_quantity as filled, coalesce(sum(f.quantity), 0) as sum from orders o left join fills f on f.order_uid = o.uid
      where o.symbol = ${symbol} group by o.uid having o.filled_quantity <> coalesce(sum(f.quantity), 0) or o.filled_quantity > o.quantity`.execute(
      a.services.db,
    )
    expect(fills.rows).toEqual([])
    expect((await checkAccounts(a.services.db)).discrepancies).toEqual([])
  })
})
