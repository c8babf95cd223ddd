import { compareDecimals, type DecimalValue, subtract } from '../../../core/decimal.ts'
import type { Side } from './book-types.ts'

/** A pending stop as the trigger check sees it. */
export interface PendingStop {
  uid: string
  side: Side
  stopPrice: DecimalValue
  /** Acceptance order: among stops at one price, the earlier triggers first. */
  seq: number
}

/**
 * A symbol's pending stop orders, kept beside its book (docs/matching.md, "Stop orders and good
 * till date"), so that checking them after a trade is a look at the end of two sorted arrays: the
 * stop nearest to triggering is last on each side. A buy triggers when a trade prints at or above
 * its stop price (the lowest stop first), a sell at or below (the highest first); among stops at
 * one price, acceptance order. With no stop pending, a check is two length reads.
 */
export class PendingStops {
  /** Buys by stop price descending, then seq descending: the next to trigger is last. */
  readonly #buys: PendingStop[] = []
  /** Sells by stop price ascending, then seq descending: the next to trigger is last. */
  readonly #sells: PendingStop[] = []

  get size(): number {
    return this.#buys.length + this.#sells.length
  }

  add(stop: PendingStop): void {
    const list = this.#list(stop.side)
    list.splice(this.#position(stop), 0, stop)
  }

  remove(stop: PendingStop): void {
    const list = this.#list(stop.side)
    const at = this.#position(stop)
    if (list[at]?.uid === stop.uid) list.splice(at, 1)
    else {
      // Not where its key says (never expected): find it by uid rather than leave it behind.
      const index = list.findIndex((s) => s.uid === stop.uid)
      if (index !== -1) list.splice(index, 1)
    }
  }

  /**
   * Takes out every stop a trade at `price` triggers, in the order they join the book: the one
   * the market crossed first (furthest from `price`: for buys the lowest stop, for sells the
   * highest) first, then by acceptance.
   */
  triggeredBy(price: DecimalValue): PendingStop[] {
    const buys = this.#buys
    const sells = this.#sells
    if (
      (buys.length === 0 || compareDecimals(buys.at(-1)!.stopPrice, price) > 0) &&
      (sells.length === 0 || compareDecimals(sells.at(-1)!.stopPrice, price) < 0)
    )
      return []
    const taken: PendingStop[] = []
    while (buys.length > 0 && compareDecimals(buys.at(-1)!.stopPrice, price) <= 0) taken.push(buys.pop()!)
    const firstSell = taken.length
    while (sells.length > 0 && compareDecimals(sells.at(-1)!.stopPrice, price) >= 0) taken.push(sells.pop()!)
    if (firstSell === 0 || firstSell === taken.length) return taken
    const distance = (stop: PendingStop) => (stop.side === 'buy' ? subtract(price, stop.stopPrice) : subtract(stop.stopPrice, price))
    return taken.sort((a, b) => compareDecimals(distance(b), distance(a)) || a.seq - b.seq)
  }

  #list(side: Side): PendingStop[] {
    return side === 'buy' ? this.#buys : this.#sells
  }

  /** Where `stop` belongs (or is) in its side's list: binary search on (stop price, seq). */
  #position(stop: PendingStop): number {
    const list = this.#list(stop.side)
    // Negative when `a` comes before `b` in the list.
    const before = (a: PendingStop, b: PendingStop) => {
      const byPrice = compareDecimals(a.stopPrice, b.stopPrice)
      if (byPrice !== 0) return stop.side === 'buy' ? -byPrice : byPrice
      return b.seq - a.seq
    }
    let low = 0
    let high = list.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (before(list[middle]!, stop) < 0) low = middle + 1
      else high = middle
    }
    return low
  }
}
