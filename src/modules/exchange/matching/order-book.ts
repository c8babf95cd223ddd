import { type DecimalValue, normalize } from '../../../core/decimal.ts'
import { type BookTop, CHECKSUM_LEVELS, type SideTop } from '../market/book-checksum.ts'
import { decimal, insertionIndex, type LevelNode, type OrderNode, pow10, toUnits } from './book-nodes.ts'
import type { CancelReason, Fill, IncomingOrder, Level, LevelChange, MatchResult, RestingOrder, Side } from './book-types.ts'

export { averagePrice, divideRounded } from './average-price.ts'
export type { CancelReason, Fill, IncomingOrder, Level, LevelChange, MatchResult, RestingOrder, Side } from './book-types.ts'

/**
 * In-memory continuous matching for one symbol: price-time priority, maker-price execution and
 * self-trade prevention that cancels the taker's remainder. Pure: no I/O, no clock.
 *
 * Amounts are bigint units at one book-wide scale per kind (price, quantity), so comparisons and
 * sums are single bigint operations. The scale only grows, when an input needs more digits than
 * the book has seen; that rescales everything once, and inputs quickly settle on the symbol's precision.
 *
 * Its levels and orders are the nodes of book-nodes.ts.
 *
 * Every level change carries the best CHECKSUM_LEVELS levels of both sides as that change left
 * them (a book event's checksum, docs/api.md "Book integrity"). A side's capture is kept until a
 * change reaches its best levels, so a change deep in the book, or on the other side, copies nothing.
 */
export class OrderBook {
  private priceScale = 0
  private quantityScale = 0
  private readonly orders = new Map<string, OrderNode>()
  /** Ascending by price: best (highest) bid last. */
  private readonly bids: LevelNode[] = []
  /** Descending by price: best (lowest) ask last. */
  private readonly asks: LevelNode[] = []
  private readonly bidByPrice = new Map<bigint, LevelNode>()
  private readonly askByPrice = new Map<bigint, LevelNode>()
  /** The sides' best levels as last captured; null once a change reached them. */
  private bidTop: SideTop | null = null
  private askTop: SideTop | null = null
  private lastTop: BookTop | null = null

  get size(): number {
    return this.orders.size
  }

  get(uid: string): RestingOrder | undefined {
    const node = this.orders.get(uid)
    return node && this.snapshot(node)
  }

  has(uid: string): boolean {
    return this.orders.has(uid)
  }

  /** Rests an order as is, without matching: for rebuilding the book from stored open orders. */
  add(order: RestingOrder): void {
    if (this.orders.has(order.uid)) throw new Error(`order ${order.uid} is already in the book`)
    if (order.remaining.coefficient <= 0n) throw new RangeError('remaining must be positive')
    this.fitScales(order.price, order.remaining)
    this.rest(order.uid, order.tenantId, order.side, order.seq, this.priceUnits(order.price), this.quantityUnits(order.remaining))
  }

  /**
   * Matches an incoming order against the book. At most `maxFills` fills are made in one call, so a
   * sweep through a deep book can be split into bounded steps (docs/matching.md, "Bounded steps").
   */
  match(order: IncomingOrder, maxFills: number = Number.POSITIVE_INFINITY): MatchResult {
    if (this.orders.has(order.uid)) throw new Error(`order ${order.uid} is already in the book`)
    if (order.quantity.coefficient <= 0n) throw new RangeError('quantity must be positive')
    if ((order.type === 'limit') !== (order.price !== null)) throw new RangeError('a limit order needs a price and a market order has none')
    this.fitScales(order.price, order.quantity)

    const changes: LevelChange[] = []
    /** The level being taken from: its change is final, and captured, once the sweep leaves it. */
    let current: LevelNode | null = null
    const fills: Fill[] = []
    const buying = order.side === 'buy'
    const book = buying ? this.asks : this.bids
    const byPrice = buying ? this.askByPrice : this.bidByPrice
    const limit = order.price === null ? null : this.priceUnits(order.price)
    const priceScale = this.priceScale
    const quantityScale = this.quantityScale
    let remaining = this.quantityUnits(order.quantity)
    let cancelReason: CancelReason | null = null
    let complete = true

    while (remaining > 0n) {
      if (fills.length >= maxFills) {
        complete = false
        break
      }
      const level = book[book.length - 1]
      if (level === undefined) break
      if (limit !== null && (buying ? level.price > limit : level.price < limit)) break
      const maker = level.head!
      if (maker.tenantId === order.tenantId) {
        cancelReason = 'self_trade'
        break
      }
      if (level !== current) {
        // Levels are taken best first, each until it is gone: a client applying the changes in
        // this order sees the book as it was when the sweep left each one.
        if (current !== null) changes.push(this.levelChange(current))
        current = level
      }
      const quantity = remaining < maker.remaining ? remaining : maker.remaining
      remaining -= quantity
      maker.remaining -= quantity
      level.total -= quantity
      if (buying) this.askTop = null
      else this.bidTop = null
      fills.push({
        makerUid: maker.uid,
        makerTenantId: maker.tenantId,
        takerUid: order.uid,
        price: decimal(level.price, priceScale),
        quantity: decimal(quantity, quantityScale),
        makerRemaining: decimal(maker.remaining, quantityScale),
      })
      if (maker.remaining === 0n) {
        this.orders.delete(maker.uid)
        this.unlink(maker)
        if (level.count === 0) {
          book.pop()
          byPrice.delete(level.price)
        }
      }
    }

    if (current !== null) changes.push(this.levelChange(current))
    let rested = false
    if (complete && remaining > 0n && cancelReason === null) {
      if (limit === null || order.rest === false) cancelReason = 'unfilled'
      else {
        changes.push(this.levelChange(this.rest(order.uid, order.tenantId, order.side, order.seq, limit, remaining)))
        rested = true
      }
    }

    return {
      fills,
      remaining: decimal(remaining, quantityScale),
      rested,
      cancelReason,
      levelChanges: changes,
      complete,
    }
  }

  /**
   * Puts a stored order's current state into the book: its remaining quantity changed in place
   * (time priority kept), or added, or moved when its side or price differs. For catching up with
   * what another process wrote (docs/matching.md, "Many instances").
   */
  upsert(order: RestingOrder): void {
    const node = this.orders.get(order.uid)
    if (node) {
      this.fitScales(order.price, order.remaining)
      const price = this.priceUnits(order.price)
      if (node.level.side === order.side && node.level.price === price && node.seq === order.seq) {
        const remaining = this.quantityUnits(order.remaining)
        this.touch(node.level.side, price)
        node.level.total += remaining - node.remaining
        node.remaining = remaining
        return
      }
      this.cancel(order.uid)
    }
    this.add(order)
  }

  /** True when an order on `side` at `price` (null: a market order) would trade with the other side's best level. */
  crosses(side: Side, price: DecimalValue | null): boolean {
    const best = side === 'buy' ? this.asks[this.asks.length - 1] : this.bids[this.bids.length - 1]
    if (best === undefined) return false
    if (price === null) return true
    this.fitScales(price, { coefficient: 1n, scale: 0 })
    const limit = this.priceUnits(price)
    return side === 'buy' ? best.price <= limit : best.price >= limit
  }

  /**
   * True when an incoming order would fill entirely right now (time in force `fok`): the other
   * side holds its quantity within its price before any order of its own tenant, which self-trade
   * prevention would stop at. Walks no further than the orders that fill would take.
   */
  canFill(order: Pick<IncomingOrder, 'side' | 'tenantId' | 'price' | 'quantity'>): boolean {
    this.fitScales(order.price, order.quantity)
    const book = order.side === 'buy' ? this.asks : this.bids
    const limit = order.price === null ? null : this.priceUnits(order.price)
    let needed = this.quantityUnits(order.quantity)
    for (let i = book.length - 1; i >= 0; i--) {
      const level = book[i]!
      if (limit !== null && (order.side === 'buy' ? level.price > limit : level.price < limit)) return false
      for (let node = level.head; node !== null; node = node.next) {
        if (node.tenantId === order.tenantId) return false
        needed -= node.remaining
        if (needed <= 0n) return true
      }
    }
    return false
  }

  /** Lowers a resting order's remaining quantity in place, keeping its time priority. */
  reduce(uid: string, remaining: DecimalValue): LevelChange {
    const node = this.orders.get(uid)
    if (!node) throw new Error(`order ${uid} is not in the book`)
    if (remaining.coefficient <= 0n) throw new RangeError('remaining must be positive')
    this.fitScales(null, remaining)
    const units = this.quantityUnits(remaining)
    if (units > node.remaining) throw new RangeError('reduce cannot add quantity: the order goes to the back of its level instead')
    this.touch(node.level.side, node.level.price)
    node.level.total -= node.remaining - units
    node.remaining = units
    return this.levelChange(node.level)
  }

  cancel(uid: string): { order: RestingOrder; levelChange: LevelChange } | undefined {
    const node = this.orders.get(uid)
    if (!node) return undefined
    const order = this.snapshot(node)
    const level = node.level
    this.touch(level.side, level.price)
    this.orders.delete(uid)
    level.total -= node.remaining
    this.unlink(node)
    if (level.count === 0) this.dropLevel(level)
    return { order, levelChange: this.levelChange(level) }
  }

  /** Bids high→low, asks low→high, at most `depth` levels. */
  levels(side: Side, depth: number = Number.POSITIVE_INFINITY): Level[] {
    const book = side === 'buy' ? this.bids : this.asks
    const out: Level[] = []
    for (let i = book.length - 1; i >= 0 && out.length < depth; i--) {
      const level = book[i]!
      out.push({ price: decimal(level.price, this.priceScale), quantity: decimal(level.total, this.quantityScale), orders: level.count })
    }
    return out
  }

  bestPrice(side: Side): DecimalValue | undefined {
    const book = side === 'buy' ? this.bids : this.asks
    const level = book[book.length - 1]
    return level && decimal(level.price, this.priceScale)
  }

  private snapshot(node: OrderNode): RestingOrder {
    return {
      uid: node.uid,
      tenantId: node.tenantId,
      side: node.level.side,
      price: decimal(node.level.price, this.priceScale),
      remaining: decimal(node.remaining, this.quantityScale),
      seq: node.seq,
    }
  }

  private levelChange(level: LevelNode): LevelChange {
    return {
      side: level.side,
      price: decimal(level.price, this.priceScale),
      quantity: decimal(level.total, this.quantityScale),
      orders: level.count,
      top: this.top(),
    }
  }

  /** Both sides' best levels as they stand, captured again only where a change reached them. */
  private top(): BookTop {
    const asks = (this.askTop ??= this.capture(this.asks))
    const bids = (this.bidTop ??= this.capture(this.bids))
    if (this.lastTop?.asks !== asks || this.lastTop.bids !== bids) this.lastTop = { asks, bids }
    return this.lastTop
  }

  private capture(book: readonly LevelNode[]): SideTop {
    const n = Math.min(book.length, CHECKSUM_LEVELS)
    const units = new Array<bigint>(2 * n)
    for (let i = 0; i < n; i++) {
      const level = book[book.length - 1 - i]!
      units[2 * i] = level.price
      units[2 * i + 1] = level.total
    }
    return { priceScale: this.priceScale, quantityScale: this.quantityScale, units }
  }

  /**
   * Before a change at `price` on `side` (a level added, changed or removed): drops the side's
   * capture when the change is among its best CHECKSUM_LEVELS levels; deeper, those stay as they are.
   */
  private touch(side: Side, price: bigint): void {
    const buy = side === 'buy'
    if ((buy ? this.bidTop : this.askTop) === null) return
    const book = buy ? this.bids : this.asks
    if (book.length >= CHECKSUM_LEVELS) {
      const edge = book[book.length - CHECKSUM_LEVELS]!.price
      if (buy ? price < edge : price > edge) return
    }
    if (buy) this.bidTop = null
    else this.askTop = null
  }

  private rest(uid: string, tenantId: string, side: Side, seq: bigint, price: bigint, quantity: bigint): LevelNode {
    this.touch(side, price)
    const level = this.levelFor(side, price)
    const node: OrderNode = { uid, tenantId, seq, remaining: quantity, level, prev: null, next: null }
    // Orders normally arrive in seq order, so this walk stops at once; a rebuild in any order still yields time priority.
    let after = level.tail
    while (after !== null && after.seq > seq) after = after.prev
    node.prev = after
    node.next = after === null ? level.head : after.next
    if (node.next === null) level.tail = node
    else node.next.prev = node
    if (after === null) level.head = node
    else after.next = node
    level.count++
    level.total += quantity
    this.orders.set(uid, node)
    return level
  }

  private unlink(node: OrderNode): void {
    const level = node.level
    if (node.prev === null) level.head = node.next
    else node.prev.next = node.next
    if (node.next === null) level.tail = node.prev
    else node.next.prev = node.prev
    node.prev = node.next = null
    level.count--
  }

  private levelFor(side: Side, price: bigint): LevelNode {
    const byPrice = side === 'buy' ? this.bidByPrice : this.askByPrice
    const existing = byPrice.get(price)
    if (existing) return existing
    const level: LevelNode = { side, price, total: 0n, count: 0, head: null, tail: null }
    const book = side === 'buy' ? this.bids : this.asks
    const index = insertionIndex(book, price, side === 'buy')
    if (index === book.length) book.push(level)
    else book.splice(index, 0, level)
    byPrice.set(price, level)
    return level
  }

  private dropLevel(level: LevelNode): void {
    const buy = level.side === 'buy'
    const book = buy ? this.bids : this.asks
    ;(buy ? this.bidByPrice : this.askByPrice).delete(level.price)
    if (book[book.length - 1] === level) {
      book.pop()
      return
    }
    const index = insertionIndex(book, level.price, buy) - 1
    if (book[index] !== level) throw new Error('order book levels out of order')
    book.splice(index, 1)
  }

  private priceUnits(value: DecimalValue): bigint {
    return toUnits(value, this.priceScale)
  }

  private quantityUnits(value: DecimalValue): bigint {
    return toUnits(value, this.quantityScale)
  }

  /** Grows the book's scales so both values convert to units exactly; a no-op once the book has seen the symbol's precision. */
  private fitScales(price: DecimalValue | null, quantity: DecimalValue): void {
    if (price !== null && price.scale > this.priceScale) {
      const scale = normalize(price).scale
      if (scale > this.priceScale) this.growPriceScale(scale)
    }
    if (quantity.scale > this.quantityScale) {
      const scale = normalize(quantity).scale
      if (scale > this.quantityScale) this.growQuantityScale(scale)
    }
  }

  private growPriceScale(scale: number): void {
    const factor = pow10(scale - this.priceScale)
    this.priceScale = scale
    this.bidTop = this.askTop = null
    for (const [book, byPrice] of [
      [this.bids, this.bidByPrice],
      [this.asks, this.askByPrice],
    ] as const) {
      byPrice.clear()
      for (const level of book) {
        level.price *= factor
        byPrice.set(level.price, level)
      }
    }
  }

  private growQuantityScale(scale: number): void {
    const factor = pow10(scale - this.quantityScale)
    this.quantityScale = scale
    this.bidTop = this.askTop = null
    for (const node of this.orders.values()) node.remaining *= factor
    for (const level of this.bids) level.total *= factor
    for (const level of this.asks) level.total *= factor
  }
}
