import type { DecimalValue } from '../../../core/decimal.ts'
import type { Side } from './book-types.ts'

/**
 * The order book's nodes (order-book.ts), amounts as bigint units at the book's scales.
 *
 * Price levels per side live in a sorted array with the best level at the END: the hot path (peek
 * the best level, drop it when exhausted) is an index read and a pop. Inserting or removing another
 * level is a binary search plus a memmove of pointers, which for the few thousand levels a book
 * holds beats a balanced tree's allocation and pointer chasing, and keeps levels() a plain walk.
 * Each level is a doubly linked FIFO and orders are indexed by uid, so cancel is O(1) within its level.
 */

export interface OrderNode {
  uid: string
  tenantId: string
  seq: bigint
  /** In quantity units at the book's quantity scale. */
  remaining: bigint
  level: LevelNode
  prev: OrderNode | null
  next: OrderNode | null
}

export interface LevelNode {
  side: Side
  /** In price units at the book's price scale. */
  price: bigint
  total: bigint
  count: number
  head: OrderNode | null
  tail: OrderNode | null
}

const POW10: bigint[] = [1n]
export function pow10(exponent: number): bigint {
  while (POW10.length <= exponent) POW10.push(POW10[POW10.length - 1]! * 10n)
  return POW10[exponent]!
}

/** Exact after fitScales(): a wider input only carries trailing zeros beyond `scale`. */
export function toUnits(value: DecimalValue, scale: number): bigint {
  return value.scale <= scale ? value.coefficient * pow10(scale - value.scale) : value.coefficient / pow10(value.scale - scale)
}

export function decimal(units: bigint, scale: number): DecimalValue {
  return { coefficient: units, scale }
}

/**
 * Index at which `price` keeps the array sorted with the best price last: bids ascending, asks
 * descending. For a price present in the array it is one past that level.
 */
export function insertionIndex(book: LevelNode[], price: bigint, ascending: boolean): number {
  let low = 0
  let high = book.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const p = book[mid]!.price
    if (ascending ? p <= price : p >= price) low = mid + 1
    else high = mid
  }
  return low
}
