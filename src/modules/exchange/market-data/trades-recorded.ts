import { decimalFromStore } from '../../../core/decimal.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { Db } from '../../../db/database.ts'
import { marketEventPayload, type MarketEventType, type MarketEventWrite } from '../event-log/event-log.ts'
import { candleRecord, LiveCandle, type Places } from './candles.ts'
import { upsertCandles } from './market-data.repository.ts'
import { CANDLE_INTERVALS, closeTimeOf, instantOf, intervalAt, marketDayStart, timestampOf } from './market-time.ts'

/**
 * What the matching pass calls for each step that traded, in the step's transaction, before the
 * step's own write (docs/market-data.md, "Kept by the matching pass"): the candles of every
 * interval updated in one statement, the reference price rolled on a market day's first trade,
 * and one `candle` event per trade carrying the 1m candle as that trade left it. Each trade's
 * candle event takes the sequence right after the trade's own (the pass reserves it).
 */
export async function recordTrades(
  db: Db,
  zone: string,
  locked: { symbol: string; price_precision: number; quantity_precision: number },
  write: { now: string; expectedEpoch: number; trades: readonly { price: string; quantity: string; sequence: number }[] },
): Promise<MarketEventWrite<MarketEventType>[]> {
  if (write.trades.length === 0) return []
  const at = instantOf(write.now)
  const intervals = CANDLE_INTERVALS.map((interval) => {
    const bounds = intervalAt(zone, interval, at)
    return { interval, open: timestampOf(bounds.open), close: closeTimeOf(bounds.next) }
  })
  const dayStart = marketDayStart(zone, at)
  const prior = await upsertCandles(db, {
    symbol: locked.symbol,
    expectedEpoch: write.expectedEpoch,
    now: write.now,
    intervals,
    prices: write.trades.map((t) => t.price),
    quantities: write.trades.map((t) => t.quantity),
    dayStart: timestampOf(dayStart),
    previousDayStart: timestampOf(marketDayStart(zone, dayStart - 1)),
  })
  const places: Places = { price: Math.max(0, locked.price_precision), quantity: Math.max(0, locked.quantity_precision) }
  const minute = intervals[0]!
  const candle = new LiveCandle(prior)
  const createdAt = formatTimestamp(write.now)
  return write.trades.map((trade) => {
    const sequence = trade.sequence + 1
    const stored = candle.add(decimalFromStore(trade.price), decimalFromStore(trade.quantity))
    const body = { interval: '1m' as const, ...candleRecord(minute.open, minute.close, stored, places) }
    return { sequence, type: 'candle', payload: marketEventPayload(sequence, 'candle', createdAt, { candle: body }) }
  })
}
