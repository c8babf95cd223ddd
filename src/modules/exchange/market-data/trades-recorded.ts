import { decimalFromStore } from '../../../core/decimal.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { Db } from '../../../db/database.ts'
import { marketEventPayload, type MarketEventType, type MarketEventWrite } from '../event-log/event-log.ts'
import { candleRecord, LiveCandle, type Places, type StoredCandle } from './candles.ts'
import { type CandleWrite, NO_CANDLES, readMinuteCandle } from './market-data.repository.ts'
import { CANDLE_INTERVALS, closeTimeOf, instantOf, intervalAt, marketDayStart, timestampOf } from './market-time.ts'

/** A step as the candles see it: when, at which book epoch, and its trades in execution order. */
export interface TradingStep {
  now: string
  expectedEpoch: number
  trades: readonly { price: string; quantity: string; sequence: number }[]
}

/** What a step records of its trades: the candles its write carries, and one `candle` event per trade. */
export interface TradesRecorded {
  candles: CandleWrite
  events: MarketEventWrite<MarketEventType>[]
}

/**
 * The `1m` candle a symbol's matching last wrote, as of the book epoch its write left (docs/market-data.md,
 * "Kept by the matching pass"). While the book row is still at that epoch nobody else wrote the
 * symbol's candles, so the next step knows the candle it widens without reading it; after another
 * process's pass, a restart or a failed pass, it reads it once (`forget` on failure).
 */
export class MinuteCandles {
  #epoch = -1
  #open = ''
  #candle: StoredCandle | undefined

  /** The `1m` candle opened at `open`, as the step at `epoch` finds it. */
  async at(db: Db, symbol: string, epoch: number, open: string): Promise<StoredCandle | undefined> {
    if (epoch === this.#epoch) return open === this.#open ? this.#candle : undefined
    return readMinuteCandle(db, symbol, open)
  }

  /** A step at `epoch` wrote (`open`, `candle`: what it left of that minute; none: it did not trade); the book is now one epoch on. */
  wrote(epoch: number, written: { open: string; candle: StoredCandle } | undefined): void {
    if (written) {
      this.#open = written.open
      this.#candle = written.candle
    } else if (epoch !== this.#epoch) return
    this.#epoch = epoch + 1
  }

  forget(): void {
    this.#epoch = -1
  }
}

/**
 * What the matching pass records for each step (docs/market-data.md, "Kept by the matching pass"):
 * the candles of every interval its trades fall in, written by the step's own statement, and one
 * `candle` event per trade carrying the 1m candle as that trade left it. Each trade's candle
 * event takes the sequence right after the trade's own (the pass reserves it). `candles` keeps
 * the minute's candle between steps.
 */
export async function recordTrades(
  db: Db,
  zone: string,
  locked: { symbol: string; price_precision: number; quantity_precision: number },
  step: TradingStep,
  candles: MinuteCandles,
): Promise<TradesRecorded> {
  if (step.trades.length === 0) {
    candles.wrote(step.expectedEpoch, undefined)
    return { candles: { symbol: locked.symbol, now: step.now, ...NO_CANDLES }, events: [] }
  }
  const at = instantOf(step.now)
  const intervals = CANDLE_INTERVALS.map((interval) => {
    const bounds = intervalAt(zone, interval, at)
    return { interval, open: timestampOf(bounds.open), close: closeTimeOf(bounds.next) }
  })
  const dayStart = marketDayStart(zone, at)
  const minute = intervals[0]!
  const live = new LiveCandle(await candles.at(db, locked.symbol, step.expectedEpoch, minute.open))
  const places: Places = { price: Math.max(0, locked.price_precision), quantity: Math.max(0, locked.quantity_precision) }
  const createdAt = formatTimestamp(step.now)
  let last: StoredCandle | undefined
  const events = step.trades.map((trade): MarketEventWrite<MarketEventType> => {
    const sequence = trade.sequence + 1
    last = live.add(decimalFromStore(trade.price), decimalFromStore(trade.quantity))
    const body = { interval: '1m' as const, ...candleRecord(minute.open, minute.close, last, places) }
    return { sequence, type: 'candle', payload: marketEventPayload(sequence, 'candle', createdAt, { candle: body }) }
  })
  candles.wrote(step.expectedEpoch, { open: minute.open, candle: last! })
  return {
    candles: {
      symbol: locked.symbol,
      now: step.now,
      intervals,
      prices: step.trades.map((t) => t.price),
      quantities: step.trades.map((t) => t.quantity),
      dayStart: timestampOf(dayStart),
      previousDayStart: timestampOf(marketDayStart(zone, dayStart - 1)),
    },
    events,
  }
}
