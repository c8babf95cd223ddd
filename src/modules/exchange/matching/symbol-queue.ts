import type { ValidationIssue } from '../../../core/errors.ts'
import type { Db } from '../../../db/database.ts'
import { balanceEvents, lockAccountChanges } from '../accounts/accounts.repository.ts'
import { appendNumbered, notifyEvents, type StreamKey } from '../event-log/event-log.ts'
import { encodeNotifications } from '../event-log/notifications.ts'
import { MinuteCandles, recordTrades } from '../market-data/trades-recorded.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { PassAccounts } from '../settlement/settlement.ts'
import {
  type AmendRequest,
  type Answer,
  type CancelManyReason,
  EpochMoved,
  MatchPass,
  type PlaceRequest,
  type StepLimits,
  type StepWriter,
} from './match-pass.ts'
import { findByClientOrderIds, loadBookChanges, loadRestingOrders, lockBook, lockPlacingAccounts, type MatchWrite, writeMatch } from './matching.repository.ts'
import { WarmBook } from './warm-book.ts'

export type PlaceOutcome =
  /** Stored and matched: the order as its own matching pass left it. */
  | { kind: 'placed'; order: OrderRow }
  /** Its tenant's `client_order_id` already names this order (stored earlier, or earlier in the same pass). */
  | { kind: 'existing'; order: OrderRow }
  /** The symbol's rules, as read under the lock, refuse it (they changed since it was validated). */
  | { kind: 'refused'; issues: ValidationIssue[] }

export type CancelOutcome = { kind: 'cancelled'; order: OrderRow } | { kind: 'not_open' }

export type AmendOutcome =
  /** The order as its amend's pass left it; `unchanged`: the amend named its current values, nothing was written. */
  { kind: 'amended'; order: OrderRow } | { kind: 'unchanged' } | { kind: 'refused'; issues: ValidationIssue[] } | { kind: 'not_open' } | { kind: 'not_active' }

export type Command =
  | { kind: 'place'; request: PlaceRequest; resolve: (outcome: PlaceOutcome) => void; reject: (error: unknown) => void }
  | { kind: 'cancel'; uid: string; resolve: (outcome: CancelOutcome) => void; reject: (error: unknown) => void }
  | { kind: 'amend'; request: AmendRequest; resolve: (outcome: AmendOutcome) => void; reject: (error: unknown) => void }
  /** Cancels every resting order of a tenant (on one side, or both): answers them as cancelled, in acceptance order. */
  | {
      kind: 'cancel_many'
      tenantId: string
      side: OrderRow['side'] | null
      reason: CancelManyReason
      resolve: (orders: OrderRow[]) => void
      reject: (error: unknown) => void
    }
  /** Loads the book (and finishes a sweep a crash cut short) before any order arrives. */
  | { kind: 'warm'; resolve: () => void; reject: (error: unknown) => void }
  /** A pass for its own sake: every pass first cancels the gtd orders due by the clock. */
  | { kind: 'expire'; resolve: () => void; reject: (error: unknown) => void }

export interface QueueOptions extends StepLimits {
  /** Commands of one symbol handled by one pass. */
  maxPassSize: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
  events?: EventsCommitted
  /** MARKET_TIMEZONE: candles and the reference price follow its days (docs/market-data.md). */
  marketTimeZone: string
  /** The clock gtd orders expire by (ms since the epoch). */
  now: () => number
}

export interface EventsCommitted {
  /** This process's streams of these keys have new events: called once the pass has committed. */
  committed: (keys: readonly StreamKey[]) => void
  /**
   * Other processes' streams are woken by a NOTIFY sent in the pass's transaction, naming this
   * process (`instance`) so it can skip its own. Undefined: no other process (the embedded database).
   */
  notify?: { instance: string }
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
      await this.#run(this.#pending.splice(0, this.options.maxPassSize))
    } finally {
      this.#running = false
    }
  }

  async #run(commands: readonly Command[]): Promise<void> {
    // After a try lost its read of the placing tenants' accounts, the next ones lock them first:
    // optimistic reads kept losing to a tenant's withdrawals made at the same moment.
    let lockAccounts = false
    for (let attempt = 1; ; attempt++) {
      let stepsWritten = 0
      try {
        const settle = this.options.transactions
          ? await this.db.transaction().execute((trx) => this.#pass(trx, commands, (n) => (stepsWritten = n), lockAccounts))
          : await this.#pass(this.db, commands, (n) => (stepsWritten = n), false)
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
          for (const command of commands) await this.#run([command])
          return
        }
        for (const command of commands) command.reject(error)
        return
      }
    }
  }

  /** One pass: returns how to answer each command once its writes are committed. */
  async #pass(db: Db, commands: readonly Command[], progress: (steps: number) => void, lockAccounts: boolean): Promise<() => void> {
    const tenants = placingTenants(commands)
    const locked = await lockBook(db, this.symbol, tenants)
    if (!locked) return () => commands.forEach(answerUnknownSymbol)
    if (lockAccounts) locked.accounts = await lockPlacingAccounts(db, tenants, [locked.base, locked.quote])
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
    // Other processes' streams are woken by the last step's statement; a pass whose last step
    // wrote nothing (its orders were all written by earlier steps) sends its own NOTIFY.
    let notified = false
    const notifications = (last: boolean) => {
      if (!last || !events?.notify) return []
      notified = true
      return encodeNotifications(events.notify.instance, pass.streams())
    }
    const pass: MatchPass = new MatchPass(locked, warm, accounts, this.options, (write, step, last) =>
      inStep((db) => this.#writeStep(db, pass, { ...write, notifications: notifications(last) }, step, progress)),
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
    if (events?.notify && streams.length > 0 && !notified) await notifyEvents(db, encodeNotifications(events.notify.instance, streams))
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
    const applied = await lockAccountChanges(db, step.changes, step.fees)
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

/** The tenants placing or amending orders in the pass: their base and quote accounts are the ones it may hold from. */
function placingTenants(commands: readonly Command[]): string[] {
  return [...new Set(commands.flatMap((c) => (c.kind === 'place' || c.kind === 'amend' ? [c.request.tenantId] : [])))]
}

function answerUnknownSymbol(command: Command): void {
  if (command.kind === 'place')
    command.resolve({
      kind: 'refused',
      issues: [{ type: 'value_error.symbol', loc: ['body', 'symbol'], msg: `unknown symbol ${command.request.symbol}`, input: command.request.symbol }],
    })
  else if (command.kind === 'cancel' || command.kind === 'amend') command.resolve({ kind: 'not_open' })
  else if (command.kind === 'cancel_many') command.resolve([])
  else command.resolve()
}

function answer(command: Command, decided: Answer, rows: Map<string, OrderRow>): void {
  const row = (uid: string) => {
    const found = rows.get(uid)
    if (!found) throw new Error(`order ${uid} was written but not returned`)
    return found
  }
  try {
    if (command.kind === 'warm' || command.kind === 'expire') return command.resolve()
    if (command.kind === 'cancel') {
      command.resolve(decided.kind === 'cancelled' ? { kind: 'cancelled', order: row(decided.uid) } : { kind: 'not_open' })
      return
    }
    if (command.kind === 'cancel_many') return command.resolve(decided.kind === 'cancelled_many' ? decided.uids.map(row) : [])
    if (command.kind === 'amend') {
      switch (decided.kind) {
        case 'amended':
          return command.resolve({ kind: 'amended', order: row(decided.uid) })
        case 'unchanged':
        case 'not_open':
        case 'not_active':
        case 'refused':
          return command.resolve(decided)
        default:
          throw new Error(`an amend cannot be answered ${decided.kind}`)
      }
    }
    switch (decided.kind) {
      case 'placed':
        return command.resolve({ kind: 'placed', order: row(decided.uid) })
      case 'same_pass':
        return command.resolve({ kind: 'existing', order: row(decided.uid) })
      case 'existing':
        return command.resolve({ kind: 'existing', order: decided.order })
      case 'refused':
        return command.resolve({ kind: 'refused', issues: decided.issues })
      default:
        throw new Error(`a placed order cannot be answered ${decided.kind}`)
    }
  } catch (error) {
    command.reject(error)
  }
}
