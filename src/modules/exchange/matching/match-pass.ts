import { add, compareDecimals, decimalFromStore, type DecimalValue, multiply, subtract, ZERO } from '../../../core/decimal.ts'
import type { StreamKey } from '../events/events.repository.ts'
import { admit, admitAmend } from '../orders/admission.ts'
import type { MarketRules } from '../orders/order-rules.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { baseType, isMarketType, type OrderSide, restsInBook } from '../orders/orders.schemas.ts'
import { type PassAccounts, Settlement } from '../settlement/settlement.ts'
import { largestFittingLot } from './lots.ts'
import type { LockedBook } from './matching.repository.ts'
import type { Fill } from './order-book.ts'
import type { AmendRequest, Answer, CancelManyReason, PlaceRequest, StepLimits, StepWriter } from './pass-commands.ts'
import { StepOutput, stored } from './step-output.ts'
import type { PendingStop } from './stops.ts'
import type { OrderState, WarmBook } from './warm-book.ts'

export type { AmendRequest, Answer, CancelManyReason, PlaceRequest, StepLimits, StepWriter } from './pass-commands.ts'

export class EpochMoved extends Error {}

// How long triggering stops may run before its step is written and the event loop served (see
// #boundStep): the step's write then adds about as much again (docs/matching.md, "Bounded steps").
const TRIGGER_TURN_MS = 10

const keyOf = (tenantId: string, clientOrderId: string) => `${tenantId}\n${clientOrderId}`

/**
 * One matching pass over the commands of a symbol, under the book's lock (docs/matching.md): it
 * matches against the warm book and writes in bounded steps, each one statement of at most
 * `fillsPerStep` fills and `ordersPerStep` orders, so a sweep through a deep book never holds the
 * event loop; on PostgreSQL every step of a pass is in the pass's one transaction.
 */
export class MatchPass {
  readonly #rules: MarketRules
  #orderSeq: number
  /** The book row's epoch as this pass's last step left it. */
  #epoch: number
  /** The current step's rows and events. */
  readonly #out: StepOutput
  /** client_order_id → uid of an order placed earlier in this pass. */
  readonly #keys = new Map<string, string>()
  /** Every order the steps wrote, as the database answered it (the last write of each). */
  readonly rows = new Map<string, OrderRow>()
  #steps = 0
  readonly #settlement: Settlement
  /** Prices of the trades printed since the pending stops were last checked against them. */
  readonly #printed: DecimalValue[] = []
  /** When the event loop last came back to this pass, by `turnClock`. */
  #turnStarted: number

  constructor(
    readonly locked: LockedBook,
    readonly warm: WarmBook,
    private readonly accounts: PassAccounts,
    private readonly limits: StepLimits,
    private readonly writeStep: StepWriter,
    /** Milliseconds, for how long the pass has held the event loop (tests set their own). */
    private readonly turnClock: () => number = () => performance.now(),
  ) {
    this.#turnStarted = turnClock()
    this.#settlement = new Settlement(locked, accounts)
    this.#rules = locked
    this.#orderSeq = locked.last_order_seq
    this.#epoch = locked.epoch
    this.#out = new StepOutput(locked)
  }

  /** The book row's epoch after the pass's writes. */
  get epoch(): number {
    return this.#epoch
  }

  /** Steps written so far. */
  get steps(): number {
    return this.#steps
  }

  /** The streams this pass wrote events to. */
  streams(): StreamKey[] {
    return this.#out.streams()
  }

  /** Writes what the last step holds. */
  async finish(): Promise<void> {
    await this.#writeStep(true)
  }

  /** Writes what the current step holds; `last`: no step follows in this pass. */
  async #writeStep(last: boolean): Promise<void> {
    const write = this.#out.take(this.#epoch, this.#orderSeq)
    if (!write) return
    const rows = await this.writeStep(write, this.accounts.takeStep(), last)
    if (rows.length === 0) throw new EpochMoved(`the book of ${this.locked.symbol} moved past epoch ${this.#epoch}`)
    this.#epoch++
    this.#steps++
    for (const row of rows) this.rows.set(row.uid, row)
  }

  /**
   * Ends the step once it holds as much as one statement may write; while stops trigger, also once
   * it has held the event loop for TRIGGER_TURN_MS: triggered stops that only rest add no fill,
   * and `ordersPerStep` new arrivals, each rendered with its events, are too long a turn.
   */
  async #boundStep(triggering = false): Promise<void> {
    const full = this.#out.fills >= this.limits.fillsPerStep || this.#out.orders >= this.limits.ordersPerStep
    if (full || (triggering && this.turnClock() - this.#turnStarted >= TRIGGER_TURN_MS)) await this.#nextStep()
  }

  /**
   * Writes the step, then lets the event loop serve what waits before the next one: the embedded
   * database runs statements on this thread and answers without ever returning to the event loop.
   */
  async #nextStep(): Promise<void> {
    await this.#writeStep(false)
    await new Promise((resolve) => setImmediate(resolve))
    this.#turnStarted = this.turnClock()
  }

  async place(request: PlaceRequest, existing: readonly OrderRow[]): Promise<Answer> {
    if (request.clientOrderId !== null) {
      const stored = existing.find((row) => row.tenant_id === request.tenantId && row.client_order_id === request.clientOrderId)
      if (stored) return { kind: 'existing', order: stored }
      const earlier = this.#keys.get(keyOf(request.tenantId, request.clientOrderId))
      if (earlier) return { kind: 'same_pass', uid: earlier }
    }
    const admission = admit(request, this.locked, {
      openOrders: this.warm.openOrders(request.tenantId),
      maxOpenOrders: this.limits.maxOpenOrdersPerSymbol,
      available: (currency) => this.accounts.available(request.tenantId, currency),
    })
    if (!admission.admitted) return { kind: 'refused', issues: admission.issues }
    const { currency, hold: held } = admission
    if (request.clientOrderId !== null) this.#keys.set(keyOf(request.tenantId, request.clientOrderId), request.uid)

    const own: OrderState = { row: this.#out.placed(request, ++this.#orderSeq, currency, held), filled: ZERO, notional: ZERO, hold: held, feeAccrued: ZERO }
    this.accounts.hold(request.tenantId, currency, held)
    if (request.stopPrice) this.warm.addPending(own)
    else {
      await this.#arrive(own, request.quantity.value, request.price?.value ?? null)
      await this.#triggerStops()
    }
    await this.#boundStep()
    return { kind: 'placed', uid: request.uid }
  }

  /** A new arrival in the book (placed, or a stop its trigger released): post-only, fok, then its sweep. */
  async #arrive(own: OrderState, quantity: DecimalValue, price: DecimalValue | null): Promise<void> {
    const { row } = own
    const { book } = this.warm
    if (row.post_only && book.crosses(row.side, price)) this.#cancelRest(own, 'post_only')
    else if (row.time_in_force === 'fok' && !book.canFill({ side: row.side, tenantId: row.tenant_id, price, quantity })) this.#cancelRest(own, 'unfilled')
    else await this.#takerSweep(own, quantity, price)
  }

  /**
   * The pending stops the trades printed since the last check trigger (docs/matching.md, "Stop
   * orders and good till date"), trade by trade: each joins the book in this pass as a new arrival
   * (`open`, the next `seq`, its `order.updated`); the stops its own trades trigger queue behind.
   */
  async #triggerStops(): Promise<void> {
    const queue: PendingStop[] = []
    for (let next = 0; ; next++) {
      for (const price of this.#printed) queue.push(...this.warm.stops.triggeredBy(price))
      this.#printed.length = 0
      if (next >= queue.length) return
      const own = this.warm.triggered(queue[next]!.uid)
      const { row } = own
      own.row = this.#out.next(own, 'open', null)
      own.row.seq = ++this.#orderSeq
      this.#out.record(own.row)
      this.#out.tenantEvent(own.row, 'order.updated', null)
      await this.#arrive(own, decimalFromStore(row.quantity), row.price === null ? null : decimalFromStore(row.price))
      await this.#boundStep(true)
    }
  }

  /**
   * Amends a resting order (docs/api.md, "Order lifecycle"): the new values are checked against the
   * symbol's rules, stay above what has filled, and move its hold (a larger hold must be
   * available). A smaller quantity at the same price keeps its place in its level; anything else
   * sends it to the back of its (new) level as a new arrival, which may trade at once.
   */
  async amend(request: AmendRequest): Promise<Answer> {
    const pending = this.warm.pending(request.uid)
    const own = this.warm.get(request.uid) ?? pending
    if (!own) return { kind: 'not_open' }
    if (!this.#rules.is_active) return { kind: 'not_active' }
    const { row } = own
    const admission = admitAmend(own, request, this.locked, (currency) => this.accounts.available(row.tenant_id, currency))
    if (admission.admitted === false) return { kind: 'refused', issues: admission.issues }
    if (admission.admitted === 'unchanged') return { kind: 'unchanged' }
    const { quantity, price, samePrice } = admission
    this.accounts.hold(row.tenant_id, admission.currency, admission.more)
    own.hold = admission.hold
    const amended = (seq: number): OrderRow => ({
      ...this.#out.next(own, own.row.status, null),
      quantity: request.quantity ? stored(request.quantity) : row.quantity,
      price: request.price ? stored(request.price) : row.price,
      stop_price: request.stopPrice ? stored(request.stopPrice) : row.stop_price,
      seq,
    })

    if (pending) {
      // A pending stop is not in the book: only a smaller quantity keeps its place among the stops.
      this.warm.removePending(row.uid)
      own.row = amended(samePrice && admission.sameStop && admission.smaller ? row.seq : ++this.#orderSeq)
      this.warm.addPending(own)
      this.#out.record(own.row)
      this.#out.tenantEvent(own.row, 'order.updated', null)
    } else if (samePrice && admission.smaller) {
      const level = this.warm.book.reduce(row.uid, subtract(quantity, own.filled))
      own.row = amended(row.seq)
      this.#out.record(own.row)
      this.#out.tenantEvent(own.row, 'order.updated', null)
      this.#out.bookEvent(level)
    } else {
      const removed = this.warm.book.cancel(row.uid)
      this.warm.remove(row.uid, true)
      if (removed) this.#out.bookEvent(removed.levelChange)
      own.row = amended(++this.#orderSeq)
      this.#out.record(own.row)
      if (row.post_only && this.warm.book.crosses(row.side, price)) this.#cancelRest(own, 'post_only')
      else {
        await this.#sweep(own, quantity, price)
        if (own.row.status !== 'cancelled') this.#out.tenantEvent(own.row, 'order.updated', null)
        await this.#triggerStops()
      }
    }
    await this.#boundStep()
    return { kind: 'amended', uid: row.uid }
  }

  /** Cancels every order of a tenant resting in the book (on one side, or both), in acceptance order. */
  async cancelMany(tenantId: string, side: OrderSide | null, reason: CancelManyReason = 'user'): Promise<Answer> {
    const uids = this.warm.restingOf(tenantId, side)
    for (const uid of uids) {
      this.cancel(uid, reason)
      await this.#boundStep()
    }
    return { kind: 'cancelled_many', uids }
  }

  /** Finishes a sweep a crash cut short between its steps (see WarmBook.load). */
  async resume(state: OrderState): Promise<void> {
    const { row } = state
    await this.#takerSweep(state, decimalFromStore(row.quantity), row.price === null ? null : decimalFromStore(row.price))
    await this.#triggerStops()
    await this.#boundStep()
  }

  /** Cancels `expired` every gtd order (resting or pending) whose `expire_at` is at or before `nowMs`. */
  async expireDue(nowMs: number): Promise<void> {
    for (const uid of this.warm.dueExpiries(nowMs)) {
      this.cancel(uid, 'expired')
      await this.#boundStep()
    }
  }

  /**
   * A taker's sweep, then one `order.updated` with the order as its fills left it (each fill has
   * its `fill` event; a maker's `order.updated` follows its fill): every change of an order is an
   * `order.*` event (docs/api.md, "Events"). A rest the sweep cancelled has its `order.updated` already.
   */
  async #takerSweep(own: OrderState, quantity: DecimalValue, price: DecimalValue | null): Promise<void> {
    const filledBefore = own.filled
    await this.#sweep(own, quantity, price)
    if (own.row.status !== 'cancelled' && compareDecimals(own.filled, filledBefore) !== 0) this.#out.tenantEvent(own.row, 'order.updated', null)
  }

  cancel(uid: string, reason: CancelManyReason = 'user'): Answer {
    const pending = this.warm.pending(uid)
    const own = this.warm.get(uid) ?? pending
    if (!own) return { kind: 'not_open' }
    const removed = pending ? undefined : this.warm.book.cancel(uid)
    if (pending) this.warm.removePending(uid)
    else this.warm.remove(uid, true)
    this.#release(own)
    own.row = this.#out.next(own, 'cancelled', reason)
    this.#out.record(own.row)
    this.#out.tenantEvent(own.row, 'order.updated', null)
    if (removed) this.#out.bookEvent(removed.levelChange)
    return { kind: 'cancelled', uid }
  }

  /** Matches what is left of an order against the book, step by step, then rests or cancels its remainder. */
  async #sweep(own: OrderState, quantity: DecimalValue, price: DecimalValue | null): Promise<void> {
    if (isMarketType(own.row.type) && own.row.side === 'buy') return this.#sweepWithin(own, quantity)
    const { book } = this.warm
    const { row } = own
    const makerSide: OrderSide = row.side === 'buy' ? 'sell' : 'buy'
    for (;;) {
      const result = book.match(
        {
          uid: row.uid,
          tenantId: row.tenant_id,
          side: row.side,
          type: baseType(row.type),
          price,
          quantity: subtract(quantity, own.filled),
          seq: BigInt(row.seq),
          rest: restsInBook(row.time_in_force),
        },
        // Each trade is two fills, one per side.
        Math.max(1, Math.floor((this.limits.fillsPerStep - this.#out.fills) / 2)),
      )
      for (const fill of result.fills) this.#trade(own, fill, makerSide, quantity)
      for (const level of result.levelChanges) this.#out.bookEvent(level)
      if (result.complete) {
        if (result.rested) this.warm.rest(own, true)
        else if (result.cancelReason !== null) this.#cancelRest(own, result.cancelReason)
        return
      }
      await this.#nextStep()
    }
  }

  /**
   * A market buy spends at most what it holds (docs/accounts.md, "Holds"): before each fill it
   * takes only as much of the best ask as its hold still pays for, price and fee included; the
   * rest is cancelled `unfilled` when the book or the hold runs out.
   */
  async #sweepWithin(own: OrderState, quantity: DecimalValue): Promise<void> {
    const { book } = this.warm
    const { row } = own
    for (;;) {
      const left = subtract(quantity, own.filled)
      if (left.coefficient === 0n) return
      const best = book.bestPrice('sell')
      const take = best && this.#affordable(own, best, left)
      if (!take || take.coefficient === 0n) return this.#cancelRest(own, 'unfilled')
      const result = book.match({ uid: row.uid, tenantId: row.tenant_id, side: 'buy', type: 'market', price: null, quantity: take, seq: BigInt(row.seq) }, 1)
      for (const fill of result.fills) this.#trade(own, fill, 'sell', quantity)
      for (const level of result.levelChanges) this.#out.bookEvent(level)
      if (result.cancelReason === 'self_trade') return this.#cancelRest(own, 'self_trade')
      if (this.#out.fills >= this.limits.fillsPerStep) await this.#nextStep()
    }
  }

  /** The most of `left` a buy can pay for at `price` from what it holds, in whole lots of the symbol. */
  #affordable(own: OrderState, price: DecimalValue, left: DecimalValue): DecimalValue {
    return largestFittingLot(left, this.locked.quantity_precision, (quantity) => {
      const cost = this.#settlement.buyerCost(own, price, quantity)
      return compareDecimals(add(cost.amount, cost.fee), own.hold) <= 0
    })
  }

  /** The rest of an order that will not rest: cancelled, and what it still holds released. */
  #cancelRest(own: OrderState, reason: NonNullable<OrderRow['cancel_reason']>): void {
    this.#release(own)
    own.row = this.#out.next(own, 'cancelled', reason)
    this.#out.record(own.row)
    this.#out.tenantEvent(own.row, 'order.updated', null)
  }

  /** An order that ended gives back what it still holds. */
  #release(state: OrderState): void {
    if (state.hold.coefficient === 0n || state.row.hold_currency === null) return
    this.accounts.hold(state.row.tenant_id, state.row.hold_currency, { coefficient: -state.hold.coefficient, scale: state.hold.scale })
    state.hold = ZERO
  }

  /** A fill: its trade, both sides' fills, the maker's and the taker's new state. */
  #trade(own: OrderState, fill: Fill, makerSide: OrderSide, quantity: DecimalValue): void {
    const trade = this.#out.trade(own.row, fill)
    if (this.warm.stops.size > 0) this.#printed.push(fill.price)
    const maker = this.warm.get(fill.makerUid)
    if (!maker) throw new Error(`maker ${fill.makerUid} is in the book but has no state`)
    const fees = this.#settlement.settle(own, maker, fill, trade.tradeUid)
    const makerDone = fill.makerRemaining.coefficient === 0n
    this.#fill(maker, fill, trade, makerSide, 'maker', makerDone ? 'filled' : 'partially_filled', fees.maker)
    this.#out.tenantEvent(maker.row, 'order.updated', null)
    if (makerDone) this.warm.remove(fill.makerUid, true)
    const takerDone = compareDecimals(add(own.filled, fill.quantity), quantity) === 0
    this.#fill(own, fill, trade, own.row.side, 'taker', takerDone ? 'filled' : 'partially_filled', fees.taker)
  }

  /** One side of a trade: the order's new totals and row, its fill, and the fill event of its tenant. */
  #fill(
    state: OrderState,
    fill: Fill,
    trade: ReturnType<StepOutput['trade']>,
    side: OrderSide,
    role: 'maker' | 'taker',
    status: OrderRow['status'],
    fee: DecimalValue,
  ): void {
    state.filled = add(state.filled, fill.quantity)
    state.notional = add(state.notional, multiply(fill.price, fill.quantity))
    if (status === 'filled') this.#release(state)
    state.row = this.#out.next(state, status, null)
    this.#out.record(state.row)
    this.#out.fill(state.row, trade, side, role, fee)
  }
}
