import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'
import { DEFAULT_MARKET_TIMEZONE } from '../market-data/market-time.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { symbolsWithDueExpiries } from './gtd.repository.ts'
import type { AmendRequest, CancelManyReason, PlaceRequest, StepLimits } from './match-pass.ts'
import { symbolsWithRestingOrders } from './matching.repository.ts'
import { type AmendOutcome, type CancelOutcome, type EventsCommitted, type PlaceOutcome, SymbolQueue } from './symbol-queue.ts'

export type { AmendRequest, CancelManyReason, PlaceRequest } from './match-pass.ts'
export type { AmendOutcome, CancelOutcome, EventsCommitted, PlaceOutcome } from './symbol-queue.ts'

export interface MatchingOptions extends Partial<StepLimits> {
  /** Passes (transactions) of different symbols in flight at once. */
  maxConcurrentPasses: number
  /** Commands of one symbol handled by one pass. */
  maxPassSize?: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
  /** Who hears of the events a pass committed (docs/events.md, "Delivery"). */
  events?: EventsCommitted
  /** MARKET_TIMEZONE (default Asia/Tehran): candles and the reference price follow its days. */
  marketTimeZone?: string
  /** The clock gtd orders expire by (ms since the epoch); the wall clock when absent. */
  now?: () => number
}

// Bounded steps (docs/matching.md): one statement writes at most this many fills and orders, so no
// step's work holds the event loop for long however deep the book.
const FILLS_PER_STEP = 100
const ORDERS_PER_STEP = 500
const MAX_PASS_SIZE = 500
export const DEFAULT_MAX_OPEN_ORDERS_PER_SYMBOL = 1000
// How often each process looks for gtd orders due: they are cancelled within 1 s of `expire_at`.
export const GTD_EXPIRY_SWEEP_MS = 250
// Orders whose symbol and tenant this process remembers (about 150 bytes each).
const MAX_KNOWN_HOMES = 50_000

/** An order's symbol and tenant: they never change once it is placed. */
export interface OrderHome {
  symbol: string
  tenantId: string
}

/**
 * Continuous matching, per symbol, in price-time priority (docs/matching.md): orders and cancels of
 * a symbol queue in their SymbolQueue and are matched in passes against a book each process keeps
 * warm in memory; at most `maxConcurrentPasses` passes (of different symbols) run at once.
 */
export class Matching {
  readonly #symbols = new Map<string, SymbolQueue>()
  readonly #waiting: SymbolQueue[] = []
  #running = 0
  /** uid → where the order lives, for the orders this process placed or looked up (oldest dropped first). */
  readonly #homes = new Map<string, OrderHome>()
  readonly #queueOptions: ConstructorParameters<typeof SymbolQueue>[2]
  /**
   * The clock gtd orders expire by, and `expire_at` is checked against at placement (ms since the
   * epoch). Tests set their own, so expiry is tested without waiting for real.
   */
  clock: () => number
  readonly #expiry = new ReloadLoop(() => this.expireDue())

  constructor(
    private readonly db: Db,
    private readonly options: MatchingOptions,
  ) {
    this.clock = options.now ?? Date.now
    this.#queueOptions = {
      now: () => this.clock(),
      maxPassSize: options.maxPassSize ?? MAX_PASS_SIZE,
      fillsPerStep: options.fillsPerStep ?? FILLS_PER_STEP,
      ordersPerStep: options.ordersPerStep ?? ORDERS_PER_STEP,
      maxOpenOrdersPerSymbol: options.maxOpenOrdersPerSymbol ?? DEFAULT_MAX_OPEN_ORDERS_PER_SYMBOL,
      transactions: options.transactions,
      marketTimeZone: options.marketTimeZone ?? DEFAULT_MARKET_TIMEZONE,
      ...(options.events ? { events: options.events } : {}),
    }
  }

  get maxOpenOrdersPerSymbol(): number {
    return this.#queueOptions.maxOpenOrdersPerSymbol
  }

  place(request: PlaceRequest): Promise<PlaceOutcome> {
    return new Promise<PlaceOutcome>((resolve, reject) => this.#queue(request.symbol).push({ kind: 'place', request, resolve, reject })).then((outcome) => {
      if (outcome.kind !== 'refused') this.remember(outcome.order)
      return outcome
    })
  }

  /**
   * Where an order lives, if this process has seen it: a cancel or an amend of an order it
   * placed goes to its symbol's queue without reading the order first (docs/matching.md).
   */
  homeOf(uid: string): OrderHome | undefined {
    return this.#homes.get(uid)
  }

  remember(order: Pick<OrderRow, 'uid' | 'symbol' | 'tenant_id'>): void {
    if (this.#homes.has(order.uid)) return
    if (this.#homes.size >= MAX_KNOWN_HOMES) this.#homes.delete(this.#homes.keys().next().value!)
    this.#homes.set(order.uid, { symbol: order.symbol, tenantId: order.tenant_id })
  }

  cancel(symbol: string, uid: string): Promise<CancelOutcome> {
    return new Promise((resolve, reject) => this.#queue(symbol).push({ kind: 'cancel', uid, resolve, reject }))
  }

  amend(symbol: string, request: AmendRequest): Promise<AmendOutcome> {
    return new Promise((resolve, reject) => this.#queue(symbol).push({ kind: 'amend', request, resolve, reject }))
  }

  /** Cancels every order of `tenantId` resting in the symbol's book (on `side`, or both sides), for `reason`. */
  cancelMany(symbol: string, tenantId: string, side: OrderRow['side'] | null, reason: CancelManyReason = 'user'): Promise<OrderRow[]> {
    return new Promise((resolve, reject) => this.#queue(symbol).push({ kind: 'cancel_many', tenantId, side, reason, resolve, reject }))
  }

  /**
   * Loads the book of every symbol that has resting orders, so the first order of each does not
   * wait for it, and finishes any sweep a crash cut short (docs/matching.md, "Bounded steps").
   */
  async warm(): Promise<void> {
    const symbols = await symbolsWithRestingOrders(this.db)
    await Promise.all(symbols.map((symbol) => new Promise<void>((resolve, reject) => this.#queue(symbol).push({ kind: 'warm', resolve, reject }))))
  }

  /**
   * Sends a pass to every symbol with a gtd order due by the clock: the pass cancels them
   * `expired` under the book's lock, on whichever process runs it (docs/matching.md).
   */
  async expireDue(): Promise<void> {
    const symbols = await symbolsWithDueExpiries(this.db, this.clock())
    await Promise.all(symbols.map((symbol) => new Promise<void>((resolve, reject) => this.#queue(symbol).push({ kind: 'expire', resolve, reject }))))
  }

  /** Runs `expireDue` every `intervalMs` (well under a second: gtd orders expire within 1 s of `expire_at`). */
  startExpiry(intervalMs: number, onError: (error: unknown) => void): void {
    this.#expiry.start(intervalMs, onError)
  }

  stopExpiry(): Promise<void> {
    return this.#expiry.stop()
  }

  #queue(symbol: string): SymbolQueue {
    let queue = this.#symbols.get(symbol)
    if (!queue) {
      queue = new SymbolQueue(symbol, this.db, this.#queueOptions, (q) => this.#ready(q))
      this.#symbols.set(symbol, queue)
    }
    return queue
  }

  /** A symbol has commands waiting: run its pass now, or when a slot frees. */
  #ready(queue: SymbolQueue): void {
    if (this.#running >= this.options.maxConcurrentPasses) {
      if (!this.#waiting.includes(queue)) this.#waiting.push(queue)
      return
    }
    this.#running++
    void queue.runPass().finally(() => {
      this.#running--
      const next = this.#waiting.shift()
      if (next) this.#ready(next)
      queue.scheduleIfPending()
    })
  }
}
