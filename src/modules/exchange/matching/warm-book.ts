import { decimalFromStore, type DecimalValue, subtract } from '../../../core/decimal.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { restsInBook, utcMs } from '../orders/orders.schemas.ts'
import { OrderBook } from './order-book.ts'
import { type PendingStop, PendingStops } from './stops.ts'

/** An order of the book: its row as stored (what its events carry) and its totals, which its next fill adds to. */
export interface OrderState {
  row: OrderRow
  filled: DecimalValue
  notional: DecimalValue
  /** What it still holds of its tenant's account in `row.hold_currency` (docs/accounts.md). */
  hold: DecimalValue
  /** Its fees as accrued, exact; charged rounded up. */
  feeAccrued: DecimalValue
}

const isResting = (row: OrderRow) => (row.status === 'open' || row.status === 'partially_filled') && row.price !== null

export function orderState(row: OrderRow): OrderState {
  return {
    row,
    filled: decimalFromStore(row.filled_quantity),
    notional: decimalFromStore(row.filled_notional),
    hold: decimalFromStore(row.hold),
    feeAccrued: decimalFromStore(row.fee_accrued),
  }
}

/**
 * A process's copy of one symbol's book, kept across passes (docs/matching.md, "Many instances"):
 * valid while the database's book epoch is `epoch`. When another process matched the symbol since,
 * `catchUp` applies just the orders it wrote; the whole book is read only when the process first
 * matches the symbol or after a pass failed.
 */
export class WarmBook {
  readonly book = new OrderBook()
  /** The resting orders, by uid. */
  readonly #orders = new Map<string, OrderState>()
  /** Resting orders per tenant, for MAX_OPEN_ORDERS_PER_SYMBOL. */
  readonly #openPerTenant = new Map<string, number>()
  /** The stops no trade has triggered yet: their states by uid, and the trigger check's lists. */
  readonly #pending = new Map<string, OrderState>()
  readonly stops = new PendingStops()
  /** gtd orders resting or pending, by uid: when they expire (ms); and no expiry is before `#nextExpiry`. */
  readonly #expiries = new Map<string, number>()
  #nextExpiry = Number.POSITIVE_INFINITY

  private constructor(public epoch: number) {}

  /**
   * The book from its resting orders, in acceptance order. A market, `ioc` or `fok` order still
   * open, or a limit order that crosses what rests before it, is a sweep cut short between its steps by a crash on
   * the embedded database (which has no transactions): it is not put in the book but returned, for
   * the next pass to finish before anything else.
   */
  static load(rows: readonly OrderRow[], epoch: number): { warm: WarmBook; unfinished: OrderState[] } {
    const warm = new WarmBook(epoch)
    const unfinished: OrderState[] = []
    for (const row of rows) {
      const state = orderState(row)
      if (row.status === 'pending') warm.addPending(state)
      else if (row.price === null || !restsInBook(row.time_in_force) || warm.book.crosses(row.side, decimalFromStore(row.price))) unfinished.push(state)
      else warm.rest(state)
    }
    return { warm, unfinished }
  }

  /** Applies what other processes wrote after this copy's epoch (each row as it now stands). */
  catchUp(rows: readonly OrderRow[], epoch: number): void {
    for (const row of rows) {
      if (this.#pending.has(row.uid)) this.removePending(row.uid)
      if (row.status === 'pending') this.addPending(orderState(row))
      else if (isResting(row)) this.rest(orderState(row))
      else if (this.#orders.has(row.uid)) this.remove(row.uid)
    }
    this.epoch = epoch
  }

  get(uid: string): OrderState | undefined {
    return this.#orders.get(uid)
  }

  /** A stop order no trade has triggered yet. */
  pending(uid: string): OrderState | undefined {
    return this.#pending.get(uid)
  }

  /** The uids of a tenant's resting orders and pending stops (on `side`, or both), in acceptance order. */
  restingOf(tenantId: string, side: OrderRow['side'] | null): string[] {
    const states = [...this.#orders.values(), ...this.#pending.values()].filter((s) => s.row.tenant_id === tenantId && (side === null || s.row.side === side))
    return states.sort((a, b) => a.row.seq - b.row.seq).map((s) => s.row.uid)
  }

  openOrders(tenantId: string): number {
    return this.#openPerTenant.get(tenantId) ?? 0
  }

  /**
   * Records a resting order's state. A new one is put in the book too (`inBook` false); one the
   * book's own matching already placed or changed (`inBook` true) only has its state replaced.
   */
  rest(state: OrderState, inBook = false): void {
    const { row } = state
    if (!inBook)
      this.book.upsert({
        uid: row.uid,
        tenantId: row.tenant_id,
        side: row.side,
        price: decimalFromStore(row.price!),
        remaining: subtract(decimalFromStore(row.quantity), state.filled),
        seq: BigInt(row.seq),
      })
    if (!this.#orders.has(row.uid)) {
      this.#openPerTenant.set(row.tenant_id, this.openOrders(row.tenant_id) + 1)
      this.#expiring(row)
    }
    this.#orders.set(row.uid, state)
  }

  /** Records a stop order that waits for its trigger: it counts as a working order of its tenant. */
  addPending(state: OrderState): void {
    const { row } = state
    this.#pending.set(row.uid, state)
    this.stops.add(pendingStop(row))
    this.#openPerTenant.set(row.tenant_id, this.openOrders(row.tenant_id) + 1)
    this.#expiring(row)
  }

  /** Forgets a pending stop: triggered (it then rests or ends as any order), cancelled or expired. */
  removePending(uid: string): void {
    const state = this.#pending.get(uid)
    if (!state) return
    this.#pending.delete(uid)
    this.stops.remove(pendingStop(state.row))
    this.#forget(state.row)
  }

  /** A stop the trigger check took out of `stops`: forgotten as pending, its state answered. */
  triggered(uid: string): OrderState {
    const state = this.#pending.get(uid)
    if (!state) throw new Error(`stop ${uid} triggered but is not pending`)
    this.#pending.delete(uid)
    this.#forget(state.row)
    return state
  }

  /** The gtd orders (resting or pending) whose `expire_at` is at or before `nowMs`, in acceptance order. */
  dueExpiries(nowMs: number): string[] {
    if (nowMs < this.#nextExpiry) return []
    const due: string[] = []
    let next = Number.POSITIVE_INFINITY
    for (const [uid, at] of this.#expiries) {
      if (at <= nowMs) due.push(uid)
      else if (at < next) next = at
    }
    this.#nextExpiry = next
    const seq = (uid: string) => (this.#orders.get(uid) ?? this.#pending.get(uid))!.row.seq
    return due.sort((a, b) => seq(a) - seq(b))
  }

  #expiring(row: OrderRow): void {
    if (row.expire_at === null) return
    const at = utcMs(row.expire_at)
    this.#expiries.set(row.uid, at)
    if (at < this.#nextExpiry) this.#nextExpiry = at
  }

  #forget(row: OrderRow): void {
    this.#expiries.delete(row.uid)
    const open = this.openOrders(row.tenant_id) - 1
    if (open > 0) this.#openPerTenant.set(row.tenant_id, open)
    else this.#openPerTenant.delete(row.tenant_id)
  }

  /** Forgets an order that no longer rests; `inBook` true when the book's own matching already removed it. */
  remove(uid: string, inBook = false): void {
    const state = this.#orders.get(uid)
    if (!state) return
    if (!inBook) this.book.cancel(uid)
    this.#orders.delete(uid)
    this.#forget(state.row)
  }
}

const pendingStop = (row: OrderRow): PendingStop => ({ uid: row.uid, side: row.side, stopPrice: decimalFromStore(row.stop_price!), seq: row.seq })
