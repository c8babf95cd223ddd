import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'
import { balanceEvents, lockAccountChanges } from '../accounts/accounts.repository.ts'
import { appendNumbered, notifyEvents, type StreamKey } from '../event-log/event-log.ts'
import { encodeNotifications } from '../event-log/notifications.ts'
import { DEFAULT_MARKET_TIMEZONE } from '../market-data/market-time.ts'
import { MinuteCandles, recordTrades } from '../market-data/trades-recorded.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { PassAccounts } from '../settlement/settlement.ts'
import { symbolsWithDueExpiries } from './gtd.repository.ts'
import { type AmendRequest, type Answer, type CancelManyReason, EpochMoved, MatchPass, type PlaceRequest, type StepWriter } from './match-pass.ts'
import {
  findByClientOrderIds,
  loadBookChanges,
  loadRestingOrders,
  lockBook,
  lockPlacingAccounts,
  type MatchWrite,
  symbolsWithRestingOrders,
  writeMatch,
} from './matching.repository.ts'
import {
  type AmendOutcome,
  answer,
  answerUnknownSymbol,
  type CancelOutcome,
  type Command,
  joinable,
  type MatchingOptions,
  type PlaceOutcome,
  placingTenants,
  type QueueOptions,
} from './pass-commands.ts'
import { WarmBook } from './warm-book.ts'

export type { AmendRequest, CancelManyReason, PlaceRequest } from './match-pass.ts'
export type { AmendOutcome, CancelOutcome, EventsCommitted, MatchingOptions, PlaceOutcome } from './pass-commands.ts'

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

  /** Commands of `symbol` waiting for a pass. */
  queued(symbol: string): number {
    return this.#symbols.get(symbol)?.queued ?? 0
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

// A pass that loses its fencing check (another writer moved the epoch) or a client_order_id race starts over.
const MAX_ATTEMPTS = 5

/**
 * An account the pass read changed before the step's write locked it (a pass of another symbol
 * spent from it): the pass runs again from what is committed now (docs/accounts.md, "Settlement").
 */
export class AccountsMoved extends Error {}

const isRetryable = (error: unknown) => {
  if (error instanceof AccountsMoved) return true
  const e = error as { code?: unknown; constraint?: unknown } | null
  return e?.code === '40P01' || e?.code === '40001' || (e?.code === '23505' && e.constraint === 'orders_tenant_client_order_id_key')
}

/** A failed statement changed nothing; an integrity violation (class 23) is one row's fault. */
const isIntegrityViolation = (error: unknown) => /^23/.test(String((error as { code?: unknown } | null)?.code ?? ''))

/**
 * The commands of one symbol, handled in passes (docs/matching.md): a pass takes what is queued,
 * locks the symbol's book row (on PostgreSQL until the pass commits, so one process at a time
 * matches a symbol, whichever process took the orders), brings its warm copy of the book up to the
 * row's epoch, matches the commands in their acceptance order and writes in bounded steps. Nothing
 * is answered before that commits: an order answered 201 is stored and already matched.
 */
export class SymbolQueue {
  #pending: Command[] = []
  #scheduled = false
  #running = false
  /** The book as of the last pass that succeeded; undefined before the first, and after a failure. */
  #warm: WarmBook | undefined
  /** The minute's candle as this process's last step left it (market-data/trades-recorded.ts). */
  readonly #candles = new MinuteCandles()

  constructor(
    readonly symbol: string,
    private readonly db: Db,
    private readonly options: QueueOptions,
    private readonly ready: (queue: SymbolQueue) => void,
  ) {}

  push(command: Command): void {
    this.#pending.push(command)
    this.scheduleIfPending()
  }

  scheduleIfPending(): void {
    if (this.#scheduled || this.#running || this.#pending.length === 0) return
    this.#scheduled = true
    // One turn of the event loop gathers the orders parsed from the same batch of socket reads.
    setImmediate(() => {
      this.#scheduled = false
      if (!this.#running && this.#pending.length > 0) this.ready(this)
    })
  }

  async runPass(): Promise<void> {
    if (this.#running || this.#pending.length === 0) return
    this.#running = true
    try {
      await this.#run(this.#pending.splice(0, this.options.maxPassSize), true)
    } finally {
      this.#running = false
    }
  }

  /** Commands waiting for a pass. */
  get queued(): number {
    return this.#pending.length
  }

  /**
   * The commands queued while the pass waited for the book's lock (another process's pass held
   * it), taken into it: in their order, up to the first that places or amends for a tenant whose
   * accounts the lock's statement did not read. Two processes matching one symbol each wait for
   * the other's pass, and their passes halved without it (docs/matching.md, "Passes").
   */
  #joiners(tenants: ReadonlySet<string>, room: number): Command[] {
    return this.#pending.splice(0, joinable(this.#pending, tenants, room))
  }

  /** `join`: the pass may take commands queued behind it once it holds the book (`#joiners`); a retry keeps them. */
  async #run(commands: Command[], join: boolean): Promise<void> {
    // After a try lost its read of the placing tenants' accounts, the next ones lock them first:
    // optimistic reads kept losing to a tenant's withdrawals made at the same moment.
    let lockAccounts = false
    for (let attempt = 1; ; attempt++) {
      let stepsWritten = 0
      try {
        const settle = this.options.transactions
          ? await this.db.transaction().execute((trx) => this.#pass(trx, commands, (n) => (stepsWritten = n), lockAccounts, join))
          : await this.#pass(this.db, commands, (n) => (stepsWritten = n), false, join)
        settle()
        return
      } catch (error) {
        // The copies in memory may hold what was never stored.
        this.#warm = undefined
        this.#candles.forget()
        // Without a transaction, steps already written stay: running the commands again would
        // place their orders twice. The next pass reloads the book and finishes any cut sweep.
        const partlyStored = !this.options.transactions && stepsWritten > 0
        if (error instanceof AccountsMoved) lockAccounts = true
        if (!partlyStored && attempt < MAX_ATTEMPTS && (error instanceof EpochMoved || isRetryable(error))) continue
        // A row the database refuses (a check the API's own validation did not foresee) fails only
        // its own command: the pass wrote nothing, so each command runs again alone, in order.
        if (!partlyStored && commands.length > 1 && isIntegrityViolation(error)) {
          for (const command of commands) await this.#run([command], false)
          return
        }
        for (const command of commands) command.reject(error)
        return
      }
    }
  }

  /** One pass: returns how to answer each command once its writes are committed. */
  async #pass(db: Db, commands: Command[], progress: (steps: number) => void, lockAccounts: boolean, join: boolean): Promise<() => void> {
    const tenants = placingTenants(commands)
    const locked = await lockBook(db, this.symbol, tenants)
    if (!locked) return () => commands.forEach(answerUnknownSymbol)
    if (lockAccounts) locked.accounts = await lockPlacingAccounts(db, tenants, [locked.base, locked.quote])
    else if (join) commands.push(...this.#joiners(new Set(tenants), this.options.maxPassSize - commands.length))
    const { warm, unfinished } = await this.#bookAt(db, locked.epoch)
    this.#warm = undefined
    const existing = await findByClientOrderIds(
      db,
      commands.flatMap((c) =>
        c.kind === 'place' && c.request.clientOrderId !== null ? [{ tenantId: c.request.tenantId, clientOrderId: c.request.clientOrderId }] : [],
      ),
    )
    const accounts = new PassAccounts(locked.accounts)
    // Without a transaction around the pass (the embedded database), each step is one: its money
    // and its orders are written together or not at all.
    const inStep = <T>(write: (db: Db) => Promise<T>) => (this.options.transactions ? write(db) : db.transaction().execute(write))
    const events = this.options.events
    // Each step's statement wakes other processes' streams of the keys no earlier step named
    // (NOTIFY is delivered when the pass commits): a pass that ends on a full step needs no NOTIFY
    // of its own, and it was half of them in the matching scenario.
    const notified = new Set<StreamKey>()
    const notifications = () => {
      if (!events?.notify) return []
      const fresh = pass.streams().filter((key) => !notified.has(key))
      for (const key of fresh) notified.add(key)
      return encodeNotifications(events.notify.instance, fresh)
    }
    const pass: MatchPass = new MatchPass(locked, warm, accounts, this.options, (write, step) =>
      inStep((db) => this.#writeStep(db, pass, { ...write, notifications: notifications() }, step, progress)),
    )
    for (const state of unfinished) await pass.resume(state)
    await pass.expireDue(this.options.now())
    const answers: Answer[] = []
    for (const command of commands) {
      if (command.kind === 'place') answers.push(await pass.place(command.request, existing))
      else if (command.kind === 'cancel') answers.push(pass.cancel(command.uid))
      else if (command.kind === 'amend') answers.push(await pass.amend(command.request))
      else if (command.kind === 'cancel_many') answers.push(await pass.cancelMany(command.tenantId, command.side, command.reason))
      else answers.push({ kind: 'not_open' })
    }
    await pass.finish()
    const streams = events ? pass.streams() : []
    const unwoken = streams.filter((key) => !notified.has(key))
    if (events?.notify && unwoken.length > 0) await notifyEvents(db, encodeNotifications(events.notify.instance, unwoken))
    return () => {
      warm.epoch = pass.epoch
      this.#warm = warm
      if (streams.length > 0) events?.committed(streams)
      commands.forEach((command, i) => answer(command, answers[i]!, pass.rows))
    }
  }

  /**
   * A step's write: its accounts locked first, in their one lock order, and checked; then one
   * statement writes them with the rows and events (docs/accounts.md, "Locks").
   */
  async #writeStep(
    db: Db,
    pass: MatchPass,
    write: Parameters<StepWriter>[0] & Pick<MatchWrite, 'notifications'>,
    step: Parameters<StepWriter>[1],
    progress: (steps: number) => void,
  ): Promise<OrderRow[]> {
    const applied = await lockAccountChanges(db, step.changes, step.fees, { inPass: this.options.transactions })
    if (!applied.ok) throw new AccountsMoved(`accounts changed under the pass of ${this.symbol}`)
    appendNumbered(write.tenantEvents, balanceEvents(applied.now, applied.accounts))
    const recorded = await recordTrades(db, this.options.marketTimeZone, pass.locked, write, this.#candles)
    write.marketEvents.push(...recorded.events)
    const rows = await writeMatch(db, { ...write, accounts: applied.write, candles: recorded.candles })
    progress(pass.steps + 1)
    return rows
  }

  /**
   * The warm book brought to `epoch`: as it is when no other process wrote since, caught up with
   * what others wrote, or read whole the first time (or after a failure, or if the database went back).
   */
  async #bookAt(db: Db, epoch: number): Promise<ReturnType<typeof WarmBook.load>> {
    const warm = this.#warm
    if (warm && warm.epoch === epoch) return { warm, unfinished: [] }
    if (warm && warm.epoch < epoch) {
      warm.catchUp(await loadBookChanges(db, this.symbol, warm.epoch), epoch)
      return { warm, unfinished: [] }
    }
    return WarmBook.load(await loadRestingOrders(db, this.symbol), epoch)
  }
}
