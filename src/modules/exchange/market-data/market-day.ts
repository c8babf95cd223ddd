import type { Db } from '../../../db/database.ts'
import { rollReferencePrices } from './market-data.repository.ts'
import { marketDayStart, timestampOf } from './market-time.ts'

// The timer re-checks at least this often, so a clock that jumped (or a missed wake-up) costs at most this.
const MAX_WAIT_MS = 3_600_000

/**
 * The market's day (docs/market-data.md, "Market day"): at each day's start in MARKET_TIMEZONE,
 * the reference price of each symbol that traded becomes the previous day's close. The matching
 * pass rolls a symbol itself at the day's first trade (recordTrades); this rolls the others at the
 * day's start, and at process start for a day whose start no process saw. `now` is the clock
 * (injected by tests); the roll is idempotent, so every process may run it.
 */
export class MarketDay {
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor(
    private readonly db: Db,
    readonly zone: string,
    readonly now: () => number = Date.now,
  ) {}

  /** Rolls the reference prices for the market day `now()` falls in; answers how many symbols rolled. */
  roll(): Promise<number> {
    const day = marketDayStart(this.zone, this.now())
    return rollReferencePrices(this.db, timestampOf(day), timestampOf(marketDayStart(this.zone, day - 1)))
  }

  /** Rolls now, then at each market day's start. */
  start(onError: (error: unknown) => void): void {
    this.#stopped = false
    const tick = () => {
      if (this.#stopped) return
      this.roll()
        .catch(onError)
        .finally(() => this.#schedule(tick))
    }
    tick()
  }

  #schedule(tick: () => void): void {
    if (this.#stopped) return
    const now = this.now()
    const nextDay = marketDayStart(this.zone, marketDayStart(this.zone, now) + 86_400_000 + 3_600_000)
    const wait = Math.min(Math.max(nextDay - now, 0), MAX_WAIT_MS)
    this.#timer = setTimeout(tick, wait)
    this.#timer.unref()
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#timer)
  }
}
