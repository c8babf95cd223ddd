import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, formatDecimalAtLeast, multiply, subtract } from '../../../core/decimal.ts'
import type { ValidationIssue } from '../../../core/errors.ts'
import { uuidv7 } from '../../../core/ids.ts'
import type { Db } from '../../../db/database.ts'
import { marketRuleIssues, type MarketRules } from '../orders/order-rules.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import type { DecimalInput, OrderSide, OrderType, ParsedOrderFields } from '../orders/orders.schemas.ts'
import {
  type ChangedOrder,
  type FillWrite,
  findByClientOrderIds,
  loadRestingOrders,
  lockBook,
  type LockedBook,
  type PlacedOrder,
  type TradeWrite,
  writeMatch,
} from './matching.repository.ts'
import { averagePrice, OrderBook } from './order-book.ts'

/** A new order, validated against the market rules as the caller last knew them. */
export interface PlaceRequest {
  uid: string
  userId: string
  tenantId: string
  clientOrderId: string | null
  symbol: string
  side: OrderSide
  type: OrderType
  quantity: DecimalInput
  price: DecimalInput | null
  /** Re-checked against the rules read under the symbol's lock, so a rule changed meanwhile is seen. */
  parsed: Pick<ParsedOrderFields, 'fields' | 'invalid'>
}

export type PlaceOutcome =
  /** Stored and matched: the order as its own matching pass left it. */
  | { kind: 'placed'; order: OrderRow }
  /** Its tenant's `client_order_id` already names this order (stored earlier, or earlier in the same pass). */
  | { kind: 'existing'; order: OrderRow }
  /** The symbol's rules, as read under the lock, refuse it (they changed since it was validated). */
  | { kind: 'refused'; issues: ValidationIssue[] }

export type CancelOutcome = { kind: 'cancelled'; order: OrderRow } | { kind: 'not_open' }

type Command =
  | { kind: 'place'; request: PlaceRequest; resolve: (outcome: PlaceOutcome) => void; reject: (error: unknown) => void }
  | { kind: 'cancel'; uid: string; resolve: (outcome: CancelOutcome) => void; reject: (error: unknown) => void }

/** A resting order's totals so far, which its next fill adds to. */
interface OrderTotals {
  quantity: DecimalValue
  filled: DecimalValue
  notional: DecimalValue
}

/** What a process holds of a symbol's book, valid while the database's epoch is `epoch`. */
interface CachedBook {
  epoch: number
  book: OrderBook
  totals: Map<string, OrderTotals>
}

export interface MatchingOptions {
  /** Passes (transactions) of different symbols in flight at once. */
  maxConcurrentPasses: number
  /** Commands of one symbol handled by one pass. */
  maxPassSize?: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
}

const ZERO: DecimalValue = { coefficient: 0n, scale: 0 }
// average_price keeps this many digits beyond the symbol's price precision (docs/api.md, "Exchange market").
const AVERAGE_PRICE_EXTRA_PLACES = 8
// A pass that loses its fencing check (another writer moved the epoch) or a client_order_id race starts over.
const MAX_ATTEMPTS = 5

const isRetryable = (error: unknown) => {
  const e = error as { code?: unknown; constraint?: unknown } | null
  return e?.code === '40P01' || e?.code === '40001' || (e?.code === '23505' && e.constraint === 'orders_tenant_client_order_id_key')
}

/** A failed statement changed nothing; an integrity violation (class 23) is one row's fault. */
const isIntegrityViolation = (error: unknown) => /^23/.test(String((error as { code?: unknown } | null)?.code ?? ''))

class EpochMoved extends Error {}

/**
 * Continuous matching, per symbol, in price-time priority (docs/api.md, "Matching"). Orders and
 * cancels of a symbol queue here and are handled in passes: a pass takes what is queued, reads the
 * symbol's book row under its lock (on PostgreSQL the row stays locked until the pass commits, so
 * one process at a time matches a symbol, whichever process took the orders), matches the orders
 * in their acceptance order against the book held in memory, and writes the new orders, the ones
 * they filled, trades and fills in one statement. Nothing is answered before that commits: an
 * order answered 201 is stored and already matched.
 *
 * The book in memory is only a copy: it is used while the database's epoch equals the one it was
 * read or written at, and rebuilt from the resting orders otherwise (another process matched the
 * symbol, or a pass failed). The write checks the epoch too (a fencing token), so a pass computed
 * from a stale copy can never be stored.
 */
export class Matching {
  readonly #symbols = new Map<string, SymbolQueue>()
  readonly #waiting: SymbolQueue[] = []
  #running = 0

  constructor(
    private readonly db: Db,
    private readonly options: MatchingOptions,
  ) {}

  place(request: PlaceRequest): Promise<PlaceOutcome> {
    return new Promise((resolve, reject) => this.#queue(request.symbol).push({ kind: 'place', request, resolve, reject }))
  }

  cancel(symbol: string, uid: string): Promise<CancelOutcome> {
    return new Promise((resolve, reject) => this.#queue(symbol).push({ kind: 'cancel', uid, resolve, reject }))
  }

  #queue(symbol: string): SymbolQueue {
    let queue = this.#symbols.get(symbol)
    if (!queue) {
      queue = new SymbolQueue(symbol, this.db, this.options, (q) => this.#ready(q))
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

class SymbolQueue {
  #pending: Command[] = []
  #scheduled = false
  #running = false
  #cache: CachedBook | undefined

  constructor(
    readonly symbol: string,
    private readonly db: Db,
    private readonly options: MatchingOptions,
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
      await this.#run(this.#pending.splice(0, this.options.maxPassSize ?? 500))
    } finally {
      this.#running = false
    }
  }

  async #run(commands: readonly Command[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const settle = this.options.transactions ? await this.db.transaction().execute((trx) => this.#pass(trx, commands)) : await this.#pass(this.db, commands)
        settle()
        return
      } catch (error) {
        // The copy in memory may hold what was never stored.
        this.#cache = undefined
        if (attempt < MAX_ATTEMPTS && (error instanceof EpochMoved || isRetryable(error))) continue
        // A row the database refuses (a check the API's own validation did not foresee) fails only
        // its own command: the pass wrote nothing, so each command runs again alone, in order.
        if (commands.length > 1 && isIntegrityViolation(error)) {
          for (const command of commands) await this.#run([command])
          return
        }
        for (const command of commands) command.reject(error)
        return
      }
    }
  }

  /** One pass: returns how to answer each command once its writes are committed. */
  async #pass(db: Db, commands: readonly Command[]): Promise<() => void> {
    const locked = await lockBook(db, this.symbol)
    if (!locked)
      return () =>
        commands.forEach((c) => (c.kind === 'place' ? c.resolve({ kind: 'refused', issues: unknownSymbol(c.request) }) : c.resolve({ kind: 'not_open' })))
    const cache = this.#cache?.epoch === locked.epoch ? this.#cache : await this.#load(db, locked.epoch)
    this.#cache = undefined
    const existing = await findByClientOrderIds(
      db,
      commands.flatMap((c) =>
        c.kind === 'place' && c.request.clientOrderId !== null ? [{ tenantId: c.request.tenantId, clientOrderId: c.request.clientOrderId }] : [],
      ),
    )
    const pass = new Pass(locked, cache)
    const answers = commands.map((command) => (command.kind === 'place' ? pass.place(command.request, existing) : pass.cancel(command.uid)))
    const rows = pass.hasWrites() ? await writeMatch(db, pass.write()) : []
    if (pass.hasWrites() && rows.length === 0) throw new EpochMoved(`the book of ${this.symbol} moved past epoch ${locked.epoch}`)
    const byUid = new Map(rows.map((row) => [row.uid, row]))
    return () => {
      this.#cache = pass.hasWrites() ? { ...cache, epoch: locked.epoch + 1 } : cache
      commands.forEach((command, i) => answer(command, answers[i]!, byUid))
    }
  }

  async #load(db: Db, epoch: number): Promise<CachedBook> {
    const book = new OrderBook()
    const totals = new Map<string, OrderTotals>()
    for (const row of await loadRestingOrders(db, this.symbol)) {
      const quantity = decimalFromStore(row.quantity)
      const filled = decimalFromStore(row.filled_quantity)
      book.add({
        uid: row.uid,
        tenantId: row.tenant_id,
        side: row.side,
        price: decimalFromStore(row.price),
        remaining: subtract(quantity, filled),
        seq: BigInt(row.seq),
      })
      totals.set(row.uid, { quantity, filled, notional: decimalFromStore(row.filled_notional) })
    }
    return { epoch, book, totals }
  }
}

/** What one command will be answered, decided during the pass, resolved once the pass is stored. */
type Answer =
  | { kind: 'placed'; uid: string }
  | { kind: 'existing'; order: OrderRow }
  | { kind: 'same_pass'; uid: string }
  | { kind: 'refused'; issues: ValidationIssue[] }
  | { kind: 'cancelled'; uid: string }
  | { kind: 'not_open' }

function answer(command: Command, decided: Answer, rows: Map<string, OrderRow>): void {
  const row = (uid: string) => {
    const found = rows.get(uid)
    if (!found) throw new Error(`order ${uid} was written but not returned`)
    return found
  }
  try {
    if (command.kind === 'cancel') {
      command.resolve(decided.kind === 'cancelled' ? { kind: 'cancelled', order: row(decided.uid) } : { kind: 'not_open' })
      return
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

const unknownSymbol = (request: PlaceRequest): ValidationIssue[] => [
  { type: 'value_error.symbol', loc: ['body', 'symbol'], msg: `unknown symbol ${request.symbol}`, input: request.symbol },
]

const keyOf = (tenantId: string, clientOrderId: string) => `${tenantId}\n${clientOrderId}`

/** The state a pass builds: the book as matched so far and everything to write. */
class Pass {
  readonly #rules: MarketRules
  readonly #pricePlaces: number
  readonly #quantityPlaces: number
  #orderSeq: number
  #marketSequence: number
  readonly #placed: PlacedOrder[] = []
  readonly #changed = new Map<string, ChangedOrder>()
  readonly #trades: TradeWrite[] = []
  readonly #fills: FillWrite[] = []
  /** client_order_id → uid of an order placed earlier in this pass. */
  readonly #keys = new Map<string, string>()

  constructor(
    readonly locked: LockedBook,
    readonly cache: CachedBook,
  ) {
    this.#rules = locked
    this.#pricePlaces = Math.max(0, locked.price_precision)
    this.#quantityPlaces = Math.max(0, locked.quantity_precision)
    this.#orderSeq = locked.last_order_seq
    this.#marketSequence = locked.market_sequence
  }

  hasWrites(): boolean {
    return this.#placed.length > 0 || this.#changed.size > 0
  }

  write() {
    return {
      symbol: this.locked.symbol,
      placed: this.#placed,
      changed: [...this.#changed.values()],
      trades: this.#trades,
      fills: this.#fills,
      lastOrderSeq: this.#orderSeq,
      marketSequence: this.#marketSequence,
    }
  }

  place(request: PlaceRequest, existing: readonly OrderRow[]): Answer {
    if (request.clientOrderId !== null) {
      const key = keyOf(request.tenantId, request.clientOrderId)
      const stored = existing.find((row) => row.tenant_id === request.tenantId && row.client_order_id === request.clientOrderId)
      if (stored) return { kind: 'existing', order: stored }
      const earlier = this.#keys.get(key)
      if (earlier) return { kind: 'same_pass', uid: earlier }
    }
    const issues = marketRuleIssues(request.parsed, this.#rules)
    if (issues.length > 0) return { kind: 'refused', issues }
    if (request.clientOrderId !== null) this.#keys.set(keyOf(request.tenantId, request.clientOrderId), request.uid)

    const { book, totals } = this.cache
    const quantity = request.quantity.value
    const result = book.match({
      uid: request.uid,
      tenantId: request.tenantId,
      side: request.side,
      type: request.type,
      price: request.price?.value ?? null,
      quantity,
      seq: BigInt(++this.#orderSeq),
    })
    let filled = ZERO
    let notional = ZERO
    const makerSide: OrderSide = request.side === 'buy' ? 'sell' : 'buy'
    for (const fill of result.fills) {
      // Time-ordered ids: a pass's trades and fills share one timestamp and list in execution order.
      const tradeUid = uuidv7()
      const price = formatDecimalAtLeast(fill.price, this.#pricePlaces)
      const amount = formatDecimalAtLeast(fill.quantity, this.#quantityPlaces)
      const value = multiply(fill.price, fill.quantity)
      filled = add(filled, fill.quantity)
      notional = add(notional, value)
      this.#trades.push({
        uid: tradeUid,
        price,
        quantity: amount,
        taker_side: request.side,
        sequence: ++this.#marketSequence,
        maker_order_uid: fill.makerUid,
        taker_order_uid: request.uid,
      })
      const fillOf = (order: string, tenant: string, side: OrderSide, role: 'maker' | 'taker'): FillWrite => ({
        uid: uuidv7(),
        order_uid: order,
        trade_uid: tradeUid,
        tenant_id: tenant,
        side,
        role,
        price,
        quantity: amount,
      })
      this.#fills.push(fillOf(fill.makerUid, fill.makerTenantId, makerSide, 'maker'), fillOf(request.uid, request.tenantId, request.side, 'taker'))
      const maker = totals.get(fill.makerUid)
      if (!maker) throw new Error(`maker ${fill.makerUid} is in the book but has no totals`)
      maker.filled = add(maker.filled, fill.quantity)
      maker.notional = add(maker.notional, value)
      const done = fill.makerRemaining.coefficient === 0n
      this.#changed.set(fill.makerUid, this.#state(fill.makerUid, maker, done ? 'filled' : 'partially_filled', null))
      if (done) totals.delete(fill.makerUid)
    }
    // Each changed level is a market event after the trades (docs/api.md, "Matching").
    this.#marketSequence += result.levelChanges.length

    const own: OrderTotals = { quantity, filled, notional }
    let status: OrderRow['status']
    if (result.rested) {
      status = filled.coefficient === 0n ? 'open' : 'partially_filled'
      totals.set(request.uid, own)
    } else status = compareDecimals(filled, quantity) === 0 ? 'filled' : 'cancelled'
    const state = this.#state(request.uid, own, status, status === 'cancelled' ? result.cancelReason : null)
    this.#placed.push({
      uid: request.uid,
      user_id: request.userId,
      tenant_id: request.tenantId,
      client_order_id: request.clientOrderId,
      side: request.side,
      type: request.type,
      quantity: request.quantity.text,
      price: request.price?.text ?? null,
      status: state.status,
      filled_quantity: state.filled_quantity,
      filled_notional: state.filled_notional,
      average_price: state.average_price,
      cancel_reason: state.cancel_reason,
      seq: this.#orderSeq,
    })
    return { kind: 'placed', uid: request.uid }
  }

  cancel(uid: string): Answer {
    const { book, totals } = this.cache
    const removed = book.cancel(uid)
    if (!removed) return { kind: 'not_open' }
    const own = totals.get(uid)
    if (!own) throw new Error(`order ${uid} is in the book but has no totals`)
    totals.delete(uid)
    this.#marketSequence++
    const state = this.#state(uid, own, 'cancelled', 'user')
    // Placed in this very pass: it is inserted as cancelled rather than updated after.
    const placed = this.#placed.find((order) => order.uid === uid)
    if (placed) Object.assign(placed, { status: state.status, cancel_reason: state.cancel_reason })
    else this.#changed.set(uid, state)
    return { kind: 'cancelled', uid }
  }

  #state(uid: string, totals: OrderTotals, status: OrderRow['status'], cancelReason: OrderRow['cancel_reason']): ChangedOrder {
    const filled = totals.filled.coefficient === 0n
    return {
      uid,
      status,
      filled_quantity: filled ? '0' : formatDecimalAtLeast(totals.filled, this.#quantityPlaces),
      filled_notional: formatDecimal(totals.notional),
      average_price: filled
        ? null
        : formatDecimalAtLeast(averagePrice(totals.notional, totals.filled, this.#pricePlaces + AVERAGE_PRICE_EXTRA_PLACES), this.#pricePlaces),
      cancel_reason: cancelReason,
    }
  }
}
