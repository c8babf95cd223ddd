import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MarketDay } from '../src/modules/exchange/market-data/market-day.ts'
import { intervalAt, marketDayStart } from '../src/modules/exchange/market-data/market-time.ts'
import { setReferencePrice } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const ZONE = 'Asia/Tehran'

let server: TestServer
let alice: TestClient
let bob: TestClient

beforeAll(async () => {
  server = await startTestServer()
  ;[alice, bob] = await Promise.all([createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

const get = (path: string, token = alice.token) => server.request('GET', path, { token })
const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })
const place = async (client: TestClient, body: unknown) => {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
/** A trade: alice rests a sell, bob takes it. */
const trade = async (symbol: string, quantity: string, price: string) => {
  await place(alice, limit(symbol, 'sell', quantity, price))
  await place(bob, limit(symbol, 'buy', quantity, price))
}
const ts = (ms: number) => new Date(ms).toISOString().replace('Z', '000')

describe('GET /api/exchange/v1/time', () => {
  it('answers the server clock without a token', async () => {
    const before = Date.now()
    const res = await server.request('GET', '/api/exchange/v1/time')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['server_time', 'epoch_ms'])
    expect(res.body.epoch_ms).toBeGreaterThanOrEqual(before)
    expect(res.body.epoch_ms).toBeLessThanOrEqual(Date.now())
    expect(res.body.server_time).toBe(ts(res.body.epoch_ms))
  })
})

describe('tickers and candles from the matching pass', () => {
  it('answers a symbol without trades with empty windows', async () => {
    const symbol = await createMarket(server.services.db)
    const res = await get(`/api/exchange/v1/symbols/${symbol}/ticker`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      symbol,
      last_price: null,
      open_price: null,
      high_price: null,
      low_price: null,
      volume: '0.00',
      quote_volume: '0.00',
      price_change: null,
      price_change_percent: null,
      trade_count: 0,
      best_bid: null,
      best_ask: null,
      reference_price: null,
      window_start: expect.stringMatching(TIMESTAMP),
      window_end: expect.stringMatching(TIMESTAMP),
    })
    const candles = await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1m`)
    expect(candles.status).toBe(200)
    expect(candles.body).toEqual({ symbol, interval: '1m', items: [] })
  })

  it('keeps OHLC, volumes and counts of every trade, and sends a candle event per trade', async () => {
    const symbol = await createMarket(server.services.db)
    const before = Date.now()
    await trade(symbol, '1.00', '100.00')
    await trade(symbol, '2.00', '103.50')
    await trade(symbol, '0.50', '99.00')
    await trade(symbol, '1.50', '101.00')
    await place(alice, limit(symbol, 'sell', '1.00', '110.00'))
    await place(bob, limit(symbol, 'buy', '1.00', '90.00'))
    const after = Date.now()
    // The test may straddle a minute boundary: then the trades span two 1m candles.
    const sameMinute = Math.floor(before / 60_000) === Math.floor(after / 60_000)

    const ticker = await get(`/api/exchange/v1/symbols/${symbol}/ticker`)
    expect(ticker.status).toBe(200)
    expect(ticker.body).toEqual({
      symbol,
      last_price: '101.00',
      open_price: '100.00',
      high_price: '103.50',
      low_price: '99.00',
      volume: '5.00',
      quote_volume: '508.00',
      price_change: '1.00',
      price_change_percent: '1.00',
      trade_count: 4,
      best_bid: '90.00',
      best_ask: '110.00',
      reference_price: null,
      window_start: expect.stringMatching(TIMESTAMP),
      window_end: expect.stringMatching(TIMESTAMP),
    })
    const end = Date.parse(`${ticker.body.window_end}Z`)
    expect(Date.parse(`${ticker.body.window_start}Z`)).toBe(Math.floor(end / 60_000) * 60_000 - 1439 * 60_000)

    for (const interval of ['1h', '4h', '1d']) {
      const res = await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=${interval}`)
      expect(res.status).toBe(200)
      const bounds = intervalAt(ZONE, interval as '1h', Date.parse(`${res.body.items[0].open_time}Z`))
      expect(res.body).toEqual({
        symbol,
        interval,
        items: [
          {
            open_time: ts(bounds.open),
            close_time: ts(bounds.next - 1).replace(/000$/, '999'),
            open: '100.00',
            high: '103.50',
            low: '99.00',
            close: '101.00',
            volume: '5.00',
            quote_volume: '508.00',
            trade_count: 4,
          },
        ],
      })
    }
    const day = (await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1d`)).body.items[0]
    expect(Date.parse(`${day.open_time}Z`)).toBe(marketDayStart(ZONE, before))

    // Every trade is followed by the 1m candle it updated; the last one of a minute is the REST candle.
    const events = (await get(`/api/exchange/v1/symbols/${symbol}/events`)).body.items
    const candles = events.filter((e: any) => e.type === 'candle')
    expect(candles).toHaveLength(4)
    for (const candle of candles) expect(events[events.indexOf(candle) - 1].type).toBe('trade')
    expect(candles.map((e: any) => e.sequence)).toEqual(events.filter((e: any) => e.type === 'trade').map((e: any) => e.sequence + 1))
    const minutes = (await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1m`)).body.items
    const lastOfMinute = new Map(candles.map((e: any) => [e.candle.open_time, e.candle]))
    expect(minutes.map((m: any) => ({ interval: '1m', ...m }))).toEqual([...lastOfMinute.values()])
    if (sameMinute) {
      expect(candles.map((e: any) => [e.candle.open, e.candle.high, e.candle.low, e.candle.close, e.candle.volume, e.candle.trade_count])).toEqual([
        ['100.00', '100.00', '100.00', '100.00', '1.00', 1],
        ['100.00', '103.50', '100.00', '103.50', '3.00', 2],
        ['100.00', '103.50', '99.00', '99.00', '3.50', 3],
        ['100.00', '103.50', '99.00', '101.00', '5.00', 4],
      ])
      expect(candles[3].candle.quote_volume).toBe('508.00')
    }
  })

  it('lists the tickers of the active symbols only, in the list envelope', async () => {
    const symbol = await createMarket(server.services.db)
    await trade(symbol, '1.00', '100.00')
    const inactive = await createMarket(server.services.db)
    await sql`update symbols set is_active = false where symbol = ${inactive}`.execute(server.services.db)
    const res = await get('/api/exchange/v1/tickers?limit=100')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['heads', 'items', 'total', 'offset', 'limit'])
    expect(res.body.heads.price_change_percent).toEqual({ en: 'Price Change Percent' })
    const names = res.body.items.map((t: any) => t.symbol)
    expect(names).toContain(symbol)
    expect(names).not.toContain(inactive)
    expect(names).toEqual([...names].sort())
    expect(res.body.total).toBe(names.length)
    const single = (await get(`/api/exchange/v1/symbols/${symbol}/ticker`)).body
    expect({ ...res.body.items.find((t: any) => t.symbol === symbol), window_start: 0, window_end: 0 }).toEqual({
      ...single,
      window_start: 0,
      window_end: 0,
    })
    const page = await get('/api/exchange/v1/tickers?offset=1&limit=1')
    expect(page.body).toMatchObject({ total: res.body.total, offset: 1, limit: 1, items: [{ symbol: names[1] }] })
  })

  it('pages candles by from, to and limit, oldest first', async () => {
    const symbol = await createMarket(server.services.db)
    // Candles of past minutes, as the pass would have left them.
    const base = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000
    for (let i = 0; i < 5; i++) {
      await sql`insert into candles values (${symbol}, '1m', ${ts(base + i * 60_000)}::timestamp(6), ${ts(base + i * 60_000 + 59_999)}::timestamp(6) + interval '999 microseconds',
        ${`${100 + i}.5`}, ${`${101 + i}`}, ${`${100 + i}`}, ${`${100 + i}.25`}, '1.5', ${`${150 + i}`}, ${i + 1})`.execute(server.services.db)
    }
    const opens = async (query: string) => {
      const res = await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1m${query}`)
      expect(res.status, res.text).toBe(200)
      return res.body.items.map((c: any) => c.open_time)
    }
    const all = [0, 1, 2, 3, 4].map((i) => ts(base + i * 60_000))
    expect(await opens('')).toEqual(all)
    expect(await opens('&limit=2')).toEqual(all.slice(3))
    expect(await opens(`&from=${all[1]}Z&limit=2`)).toEqual(all.slice(1, 3))
    expect(await opens(`&to=${encodeURIComponent(new Date(base + 2 * 60_000).toISOString().replace('Z', '+00:00'))}`)).toEqual(all.slice(0, 3))
    expect(await opens(`&from=${all[1]}Z&to=${all[3]}Z`)).toEqual(all.slice(1, 4))
    const [first] = (await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1m&limit=1&from=${all[0]}Z`)).body.items
    expect(first).toEqual({
      open_time: all[0],
      close_time: ts(base + 59_999).replace(/000$/, '999'),
      open: '100.50',
      high: '101.00',
      low: '100.00',
      close: '100.25',
      volume: '1.50',
      quote_volume: '150.00',
      trade_count: 1,
    })
  })
})

describe('bad requests', () => {
  it('answers 404 for an unknown symbol, 401 without a token', async () => {
    for (const path of ['ticker', 'candles?interval=1m']) {
      const res = await get(`/api/exchange/v1/symbols/NOPE-NOPE/${path}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: 'Symbol NOPE-NOPE not found', error: 'not_found', detail: 'Symbol NOPE-NOPE not found' })
    }
    const res = await server.request('GET', '/api/exchange/v1/tickers')
    expect(res.status).toBe(401)
  })

  it('answers 422 with detail items for bad candle queries', async () => {
    const symbol = await createMarket(server.services.db)
    const detail = async (query: string) => {
      const res = await get(`/api/exchange/v1/symbols/${symbol}/candles${query}`)
      expect(res.status, res.text).toBe(422)
      expect(Object.keys(res.body)).toEqual(['detail'])
      return res.body.detail
    }
    expect(await detail('')).toEqual([{ type: 'missing', loc: ['query', 'interval'], msg: 'Field required' }])
    expect(await detail('?interval=2m')).toEqual([
      {
        type: 'type_error.enum',
        loc: ['query', 'interval'],
        msg: "value is not a valid enumeration member; permitted: '1m', '5m', '15m', '1h', '4h', '1d'",
        input: '2m',
        ctx: { enum_values: ['1m', '5m', '15m', '1h', '4h', '1d'] },
      },
    ])
    expect(await detail('?interval=1m&limit=1001')).toEqual([
      {
        type: 'value_error.number.not_le',
        loc: ['query', 'limit'],
        msg: 'ensure this value is less than or equal to 1000',
        input: '1001',
        ctx: { limit_value: 1000 },
      },
    ])
    expect(await detail('?interval=1m&limit=0')).toMatchObject([{ type: 'value_error.number.not_ge', loc: ['query', 'limit'] }])
    expect(await detail('?interval=1m&from=yesterday')).toEqual([
      { type: 'value_error.datetime', loc: ['query', 'from'], msg: 'invalid datetime format', input: 'yesterday' },
    ])
    expect(await detail('?interval=1m&from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z')).toEqual([
      { type: 'value_error.datetime.not_ge', loc: ['query', 'to'], msg: 'to must not be before from', input: '2026-12-01T00:00:00Z' },
    ])
    expect(await detail('?interval=1m&page=2')).toEqual([{ type: 'value_error.extra', loc: ['query', 'page'], msg: 'extra fields not permitted' }])
  })
})

describe('GraphQL parity', () => {
  it('answers Symbol.ticker, Symbol.candles, tickers and serverTime as REST does', async () => {
    const symbol = await createMarket(server.services.db)
    await trade(symbol, '1.00', '100.00')
    await trade(symbol, '1.00', '102.00')
    const res = await server.graphql<any, { symbol: string }>(
      `query ($symbol: String!) {
        symbol(symbol: $symbol) {
          ticker { symbol lastPrice openPrice highPrice lowPrice volume quoteVolume priceChange priceChangePercent tradeCount bestBid bestAsk referencePrice }
          candles(interval: H1, limit: 10) { openTime closeTime open high low close volume quoteVolume tradeCount }
        }
        tickers(limit: 100) { symbol tradeCount }
        serverTime { serverTime epochMs }
      }`,
      { symbol },
      { token: alice.token },
    )
    expect(res.errors).toBeUndefined()
    const ticker = (await get(`/api/exchange/v1/symbols/${symbol}/ticker`)).body
    expect(res.data.symbol.ticker).toEqual({
      symbol,
      lastPrice: ticker.last_price,
      openPrice: ticker.open_price,
      highPrice: ticker.high_price,
      lowPrice: ticker.low_price,
      volume: ticker.volume,
      quoteVolume: ticker.quote_volume,
      priceChange: ticker.price_change,
      priceChangePercent: ticker.price_change_percent,
      tradeCount: ticker.trade_count,
      bestBid: null,
      bestAsk: null,
      referencePrice: null,
    })
    expect(ticker.price_change_percent).toBe('2.00')
    const candles = (await get(`/api/exchange/v1/symbols/${symbol}/candles?interval=1h&limit=10`)).body.items
    expect(res.data.symbol.candles).toEqual(
      candles.map((c: any) => ({
        openTime: c.open_time,
        closeTime: c.close_time,
        open: c.open,
        high: c.high,
        low: c.low,
        close: c.close,
        volume: c.volume,
        quoteVolume: c.quote_volume,
        tradeCount: c.trade_count,
      })),
    )
    expect(res.data.tickers).toContainEqual({ symbol, tradeCount: 2 })
    expect(res.data.serverTime.serverTime).toBe(ts(Number(res.data.serverTime.epochMs)))
  })

  it('reports the same errors as REST', async () => {
    const symbol = await createMarket(server.services.db)
    const res = await server.graphql(`{ symbol(symbol: "${symbol}") { candles(interval: M1, limit: 5000) { open } } }`, undefined, { token: alice.token })
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      detail: [{ type: 'value_error.number.not_le', loc: ['query', 'limit'] }],
    })
  })
})

describe('the market day (MARKET_TIMEZONE, injected clock)', () => {
  it('rolls the reference price to the previous market day close at the day start, once, and never over an operator', async () => {
    const db = server.services.db
    const symbol = await createMarket(db)
    await trade(symbol, '1.00', '100.00')
    await trade(symbol, '1.00', '104.00')
    const { last_trade_at } = await db.selectFrom('symbol_books').select('last_trade_at').where('symbol', '=', symbol).executeTakeFirstOrThrow()
    const traded = Date.parse(`${last_trade_at!.replace(' ', 'T')}Z`)
    const reference = async () =>
      (await db.selectFrom('symbols').select('reference_price').where('symbol', '=', symbol).executeTakeFirstOrThrow()).reference_price
    let now = traded
    const day = new MarketDay(db, ZONE, () => now)

    // The same market day: nothing rolls.
    await day.roll()
    expect(await reference()).toBeNull()
    // Just before the next market day (Tehran midnight, 20:30 UTC) still nothing; at its start, the close.
    const next = marketDayStart(ZONE, traded) + 86_400_000
    expect(new Date(next).getUTCHours() * 60 + new Date(next).getUTCMinutes()).toBe(20 * 60 + 30)
    now = next - 1
    await day.roll()
    expect(await reference()).toBeNull()
    now = next
    await day.roll()
    expect(await reference()).toBe('104.00')
    // An operator's price stands for the rest of that day, whatever rolls run.
    await sql`update symbols set reference_price = '120.00', reference_price_at = ${ts(next + 60_000)}::timestamp(6) where symbol = ${symbol}`.execute(db)
    now = next + 3_600_000
    await day.roll()
    expect(await reference()).toBe('120.00')
    // The day after, with no trade since: still the operator's.
    now = next + 86_400_000
    await day.roll()
    expect(await reference()).toBe('120.00')
  })

  it('rolls at the first trade of a market day, in the pass, before the trade moves the last price', async () => {
    const db = server.services.db
    const symbol = await createMarket(db)
    await setReferencePrice(db, symbol, '100')
    await trade(symbol, '1.00', '101.00')
    expect((await db.selectFrom('symbols').select('reference_price').where('symbol', '=', symbol).executeTakeFirstOrThrow()).reference_price).toBe('100')
    // As if that trade and the operator's price were of the previous market day.
    const yesterday = marketDayStart(ZONE, Date.now()) - 3_600_000
    await sql`update symbol_books set last_trade_at = ${ts(yesterday)}::timestamp(6) where symbol = ${symbol}`.execute(db)
    await sql`update symbols set reference_price_at = ${ts(yesterday - 60_000)}::timestamp(6) where symbol = ${symbol}`.execute(db)
    await trade(symbol, '1.00', '102.00')
    const row = await db.selectFrom('symbols').select(['reference_price', 'reference_price_at']).where('symbol', '=', symbol).executeTakeFirstOrThrow()
    expect(row.reference_price).toBe('101.00')
    expect(Date.parse(`${row.reference_price_at!.replace(' ', 'T')}Z`)).toBe(marketDayStart(ZONE, Date.now()))
    const ticker = (await get(`/api/exchange/v1/symbols/${symbol}/ticker`)).body
    expect(ticker.reference_price).toBe('101.00')
  })
})
