import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { formatDecimalAtLeast } from '../src/core/decimal.ts'
import { candleWrites, readCandles } from '../src/modules/exchange/market-data/market-data.repository.ts'
import { CANDLE_INTERVALS, type CandleInterval } from '../src/modules/exchange/market-data/market-time.ts'
import { MinuteCandles, recordTrades } from '../src/modules/exchange/market-data/trades-recorded.ts'
import { createMarket } from './helpers/markets.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * The candles the matching pass keeps (recordTrades, written by each step's own statement) against
 * a plain model: generated steps of trades at generated times around a market midnight of a zone
 * whose offset is not whole hours, every interval's candles compared with buckets computed from the
 * fixed offset. Between steps the pass either knows the minute's candle (its own last write) or
 * reads it (another process wrote, or a pass failed): generated too.
 */

const ZONES = [
  { zone: 'Asia/Kathmandu', offsetMinutes: 5 * 60 + 45 },
  { zone: 'Asia/Tehran', offsetMinutes: 3 * 60 + 30 },
]
const MINUTES: Record<CandleInterval, number> = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '4h': 240, '1d': 1440 }

let server: TestServer
let symbol: string
let sequence = 0

beforeAll(async () => {
  server = await startTestServer()
  symbol = await createMarket(server.services.db, {}, { funded: false })
  await sql`insert into symbol_books (symbol) values (${symbol}) on conflict do nothing`.execute(server.services.db)
})
afterAll(async () => {
  await server?.close()
})

interface ModelCandle {
  open: number
  high: number
  low: number
  close: number
  /** Hundredths of the base. */
  volume: number
  /** Cents × hundredths. */
  quote: bigint
  count: number
}

const ts = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '000')
const api = (ms: number) => new Date(ms).toISOString().replace('Z', '000')
const cents = (n: number | bigint, scale: number) => formatDecimalAtLeast({ coefficient: BigInt(n), scale }, 2)

const step = fc.record({
  afterMs: fc.integer({ min: 0, max: 50 * 60_000 }),
  trades: fc.array(fc.record({ price: fc.integer({ min: 1, max: 99_999 }), quantity: fc.integer({ min: 1, max: 9_999 }) }), { minLength: 1, maxLength: 4 }),
  forgotten: fc.boolean(),
})

describe('candles against a plain model', () => {
  for (const { zone, offsetMinutes } of ZONES) {
    it(`aggregates generated trades per interval in ${zone}, across a market midnight`, async () => {
      const db = server.services.db
      const offset = offsetMinutes * 60_000
      // Two hours before a market midnight: the steps (up to 20 × 50 min) cross it.
      const midnight = Date.UTC(2026, 2, 1) - offset
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 59_999 }), async (steps, jitter) => {
          await sql`delete from candles where symbol = ${symbol}`.execute(db)
          const model = new Map<string, ModelCandle>()
          const bucket = (at: number, interval: CandleInterval) => {
            const size = MINUTES[interval] * 60_000
            return Math.floor((at + offset) / size) * size - offset
          }
          let at = midnight - 2 * 3_600_000 + jitter
          const candles = new MinuteCandles()
          let epoch = 0
          for (const { afterMs, trades, forgotten } of steps) {
            at += afterMs
            if (forgotten) candles.forget()
            const written = trades.map((t) => ({ price: cents(t.price, 2), quantity: cents(t.quantity, 2), sequence: (sequence += 2) - 1 }))
            const recorded = await recordTrades(
              db,
              zone,
              { symbol, price_precision: 2, quantity_precision: 2 },
              { now: ts(at), expectedEpoch: epoch++, trades: written },
              candles,
            )
            // The candle CTEs as the step's write runs them, fenced by a row as the book row fences them.
            await sql`with fence as (select 1), ${candleWrites(recorded.candles, 'fence')} select 1`.execute(db)
            const { events } = recorded
            trades.forEach((t, i) => {
              for (const interval of CANDLE_INTERVALS) {
                const key = `${interval} ${bucket(at, interval)}`
                const c = model.get(key)
                model.set(
                  key,
                  c
                    ? {
                        open: c.open,
                        high: Math.max(c.high, t.price),
                        low: Math.min(c.low, t.price),
                        close: t.price,
                        volume: c.volume + t.quantity,
                        quote: c.quote + BigInt(t.price) * BigInt(t.quantity),
                        count: c.count + 1,
                      }
                    : { open: t.price, high: t.price, low: t.price, close: t.price, volume: t.quantity, quote: BigInt(t.price) * BigInt(t.quantity), count: 1 },
                )
              }
              // Each trade's candle event: the sequence after the trade's, the 1m candle as it left it.
              const open = bucket(at, '1m')
              const c = model.get(`1m ${open}`)!
              const event = events[i]!
              expect(event.sequence).toBe(written[i]!.sequence + 1)
              expect(JSON.parse(event.payload)).toEqual({
                sequence: event.sequence,
                type: 'candle',
                created_at: api(at),
                candle: expected(open, open + 60_000, c, '1m'),
              })
            })
          }
          for (const interval of CANDLE_INTERVALS) {
            const stored = await readCandles(db, { symbol, interval, limit: 1000, pricePlaces: 2, quantityPlaces: 2 })
            const modelled = [...model.entries()]
              .filter(([key]) => key.startsWith(`${interval} `))
              .map(([key, c]) => {
                const open = Number(key.split(' ')[1])
                return expected(open, open + MINUTES[interval] * 60_000, c)
              })
              .sort((a, b) => a.open_time.localeCompare(b.open_time))
            expect(stored).toEqual(modelled)
          }
        }),
        { numRuns: 25 },
      )
    }, 120_000)
  }
})

function expected(open: number, next: number, c: ModelCandle, interval?: '1m') {
  return {
    ...(interval ? { interval } : {}),
    open_time: api(open),
    close_time: api(next - 1).replace(/000$/, '999'),
    open: cents(c.open, 2),
    high: cents(c.high, 2),
    low: cents(c.low, 2),
    close: cents(c.close, 2),
    volume: cents(c.volume, 2),
    quote_volume: cents(c.quote, 4),
    trade_count: c.count,
  }
}
