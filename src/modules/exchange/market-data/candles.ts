import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimalAtLeast, multiply, ZERO } from '../../../core/decimal.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'

/**
 * A candle's arithmetic (docs/market-data.md): what one trade does to the candle of its interval.
 * The matching pass's statement does the same in SQL for every interval (market-data.repository.ts);
 * this is how a `candle` event carries the 1m candle as each trade left it.
 */

/** A candle as stored: decimals as PostgreSQL prints `numeric`. */
export interface StoredCandle {
  open: string
  high: string
  low: string
  close: string
  volume: string
  quote_volume: string
  trade_count: number
}

/** A candle as REST and events render it (docs/market-data.md, "Candles"). */
export interface CandleRecord {
  open_time: string
  close_time: string
  open: string
  high: string
  low: string
  close: string
  volume: string
  quote_volume: string
  trade_count: number
}

/** The body of a `candle` market event: the 1m candle its trade updated. */
export type CandleEventBody = { interval: '1m' } & CandleRecord

export interface Places {
  /** Digits after the point prices print with at least (the symbol's price precision, 0 when negative). */
  price: number
  /** Likewise for base quantities. */
  quantity: number
}

/**
 * How every face prints a candle's decimals, whatever scale the sums reached: no trailing zeros
 * beyond what the value needs, at least the symbol's places (prices and quote volume at its price
 * precision, base volume at its quantity precision). The SQL that reads candles prints the same.
 */
export function candleText(row: StoredCandle, places: Places) {
  const at = (text: string, n: number) => formatDecimalAtLeast(decimalFromStore(text), n)
  return {
    open: at(row.open, places.price),
    high: at(row.high, places.price),
    low: at(row.low, places.price),
    close: at(row.close, places.price),
    volume: at(row.volume, places.quantity),
    quote_volume: at(row.quote_volume, places.price),
    trade_count: row.trade_count,
  }
}

interface Running {
  open: DecimalValue
  high: DecimalValue
  low: DecimalValue
  close: DecimalValue
  volume: DecimalValue
  quoteVolume: DecimalValue
  count: number
}

/** A candle followed trade by trade, from what was stored before (or nothing). */
export class LiveCandle {
  #state: Running | undefined

  constructor(prior: StoredCandle | undefined) {
    if (prior)
      this.#state = {
        open: decimalFromStore(prior.open),
        high: decimalFromStore(prior.high),
        low: decimalFromStore(prior.low),
        close: decimalFromStore(prior.close),
        volume: decimalFromStore(prior.volume),
        quoteVolume: decimalFromStore(prior.quote_volume),
        count: prior.trade_count,
      }
  }

  /** Adds a trade; answers the candle it leaves, as stored text. */
  add(price: DecimalValue, quantity: DecimalValue): StoredCandle {
    const s = this.#state
    const next: Running = s
      ? {
          open: s.open,
          high: compareDecimals(price, s.high) > 0 ? price : s.high,
          low: compareDecimals(price, s.low) < 0 ? price : s.low,
          close: price,
          volume: add(s.volume, quantity),
          quoteVolume: add(s.quoteVolume, multiply(price, quantity)),
          count: s.count + 1,
        }
      : { open: price, high: price, low: price, close: price, volume: add(ZERO, quantity), quoteVolume: multiply(price, quantity), count: 1 }
    this.#state = next
    const text = (v: DecimalValue) => formatDecimalAtLeast(v, 0)
    return {
      open: text(next.open),
      high: text(next.high),
      low: text(next.low),
      close: text(next.close),
      volume: text(next.volume),
      quote_volume: text(next.quoteVolume),
      trade_count: next.count,
    }
  }
}

/** A candle record from its interval's bounds (`timestamp(6)` text) and its stored values. */
export function candleRecord(openTime: string, closeTime: string, row: StoredCandle, places: Places): CandleRecord {
  return { open_time: formatTimestamp(openTime), close_time: formatTimestamp(closeTime), ...candleText(row, places) }
}
