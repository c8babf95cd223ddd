import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, formatDecimalAtLeast, multiply, subtract } from '../../../core/decimal.ts'
import type { ValidationIssue } from '../../../core/errors.ts'
import { uuidv7 } from '../../../core/ids.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { Db } from '../../../db/database.ts'
import { marketStream, notifyEvents, type StreamKey, tenantStream } from '../events/events.repository.ts'
import { type FillRecord, fillRecord } from '../fills/fill-records.ts'
import { tradeRecord } from '../market/trade-records.ts'
import { orderRecord } from '../orders/order-records.ts'
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
  type MarketEventWrite,
  type MatchWrite,
  type PlacedOrder,
  type TenantEventWrite,
  type TradeWrite,
  writeMatch,
} from './matching.repository.ts'
import { averagePrice, type Fill, type LevelChange, OrderBook } from './order-book.ts'

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

/** An order of the book: its row as stored (what its events carry) and its totals, which its next fill adds to. */
interface OrderState {
  row: OrderRow
  filled: DecimalValue
  notional: DecimalValue
}

/** What a process holds of a symbol's book, valid while the database's epoch is `epoch`. */
interface CachedBook {
  epoch: number
  book: OrderBook
  orders: Map<string, OrderState>
}

export interface MatchingOptions {
  /** Passes (transactions) of different symbols in flight at once. */
  maxConcurrentPasses: number
  /** Commands of one symbol handled by one pass. */
  maxPassSize?: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
  /** Who hears of the events a pass committed (docs/events.md, "Delivery"). */
  events?: EventsCommitted
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

// NOTIFY payloads stay under PostgreSQL's 8000 bytes.
const MAX_NOTIFY_PAYLOAD = 7900

/** `<instance> <key> <key> …`, split so each payload fits a NOTIFY. */
export function notificationPayloads(instance: string, keys: readonly StreamKey[]): string[] {
  const payloads: string[] = []
  let current = instance
  for (const key of keys) {
    if (current.length + 1 + key.length > MAX_NOTIFY_PAYLOAD) {
      payloads.push(current)
      current = instance
    }
    current += ` ${key}`
  }
  if (current !== instance) payloads.push(current)
  return payloads
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
    const events = this.options.events
    const streams = events ? pass.streams() : []
    if (events?.notify && streams.length > 0) await notifyEvents(db, notificationPayloads(events.notify.instance, streams))
    const byUid = new Map(rows.map((row) => [row.uid, row]))
    return () => {
      this.#cache = pass.hasWrites() ? { ...cache, epoch: locked.epoch + 1 } : cache
      if (streams.length > 0) events?.committed(streams)
      commands.forEach((command, i) => answer(command, answers[i]!, byUid))
    }
  }

  async #load(db: Db, epoch: number): Promise<CachedBook> {
    const book = new OrderBook()
    const orders = new Map<string, OrderState>()
    for (const row of await loadRestingOrders(db, this.symbol)) {
      const filled = decimalFromStore(row.filled_quantity)
      book.add({
        uid: row.uid,
        tenantId: row.tenant_id,
        side: row.side,
        price: decimalFromStore(row.price!),
        remaining: subtract(decimalFromStore(row.quantity), filled),
        seq: BigInt(row.seq),
      })
      orders.set(row.uid, { row, filled, notional: decimalFromStore(row.filled_notional) })
    }
    return { epoch, book, orders }
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
  readonly #placed = new Map<string, PlacedOrder>()
  readonly #changed = new Map<string, ChangedOrder>()
  readonly #trades: TradeWrite[] = []
  readonly #fills: FillWrite[] = []
  readonly #tenantEvents: TenantEventWrite[] = []
  readonly #marketEvents: MarketEventWrite[] = []
  /** Events of this pass per tenant so far: their ordinals. */
  readonly #eventsPerTenant = new Map<string, number>()
  /** client_order_id → uid of an order placed earlier in this pass. */
  readonly #keys = new Map<string, string>()
  readonly #createdAt: string

  constructor(
    readonly locked: LockedBook,
    readonly cache: CachedBook,
  ) {
    this.#rules = locked
    this.#pricePlaces = Math.max(0, locked.price_precision)
    this.#quantityPlaces = Math.max(0, locked.quantity_precision)
    this.#orderSeq = locked.last_order_seq
    this.#marketSequence = locked.market_sequence
    this.#createdAt = formatTimestamp(locked.now)
  }

  hasWrites(): boolean {
    return this.#placed.size > 0 || this.#changed.size > 0
  }

  write(): MatchWrite {
    return {
      now: this.locked.now,
      expectedEpoch: this.locked.epoch,
      symbol: this.locked.symbol,
      placed: [...this.#placed.values()],
      changed: [...this.#changed.values()],
      trades: this.#trades,
      fills: this.#fills,
      tenantEvents: this.#tenantEvents,
      marketEvents: this.#marketEvents,
      lastOrderSeq: this.#orderSeq,
      marketSequence: this.#marketSequence,
    }
  }

  /** The streams this pass wrote events to. */
  streams(): StreamKey[] {
    const keys = [...this.#eventsPerTenant.keys()].map(tenantStream)
    if (this.#marketEvents.length > 0) keys.push(marketStream(this.locked.symbol))
    return keys
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

    const { book, orders } = this.cache
    const seq = ++this.#orderSeq
    const own: OrderState = {
      row: {
        uid: request.uid,
        created_at: this.locked.now,
        updated_at: this.locked.now,
        is_deleted: false,
        meta_data: null,
        user_id: request.userId,
        tenant_id: request.tenantId,
        client_order_id: request.clientOrderId,
        symbol: this.locked.symbol,
        side: request.side,
        type: request.type,
        quantity: request.quantity.text,
        price: request.price?.text ?? null,
        status: 'open',
        filled_quantity: '0',
        average_price: null,
        cancel_reason: null,
        filled_notional: '0',
        seq,
      },
      filled: ZERO,
      notional: ZERO,
    }
    this.#placed.set(request.uid, own.row)
    this.#tenantEvent(own.row, 'order.created', null)
    const result = book.match({
      uid: request.uid,
      tenantId: request.tenantId,
      side: request.side,
      type: request.type,
      price: request.price?.value ?? null,
      quantity: request.quantity.value,
      seq: BigInt(seq),
    })
    const makerSide: OrderSide = request.side === 'buy' ? 'sell' : 'buy'
    for (const fill of result.fills) {
      // Time-ordered ids: a pass's trades and fills share one timestamp and list in execution order.
      const tradeUid = uuidv7()
      const price = formatDecimalAtLeast(fill.price, this.#pricePlaces)
      const quantity = formatDecimalAtLeast(fill.quantity, this.#quantityPlaces)
      const trade: TradeWrite = {
        uid: tradeUid,
        price,
        quantity,
        taker_side: request.side,
        sequence: ++this.#marketSequence,
        maker_order_uid: fill.makerUid,
        taker_order_uid: request.uid,
      }
      this.#trades.push(trade)
      this.#marketEvent(trade.sequence, 'trade', {
        trade: tradeRecord({ ...trade, symbol: this.locked.symbol, created_at: this.locked.now }),
      })
      const maker = orders.get(fill.makerUid)
      if (!maker) throw new Error(`maker ${fill.makerUid} is in the book but has no state`)
      const done = fill.makerRemaining.coefficient === 0n
      this.#fill(maker, fill, price, quantity, tradeUid, makerSide, 'maker', done ? 'filled' : 'partially_filled', null)
      if (done) orders.delete(fill.makerUid)
      const takerDone = compareDecimals(add(own.filled, fill.quantity), request.quantity.value) === 0
      this.#fill(own, fill, price, quantity, tradeUid, request.side, 'taker', takerDone ? 'filled' : 'partially_filled', null)
    }
    for (const level of result.levelChanges) this.#bookEvent(level)

    if (result.rested) orders.set(request.uid, own)
    else if (result.cancelReason !== null) {
      own.row = this.#next(own, 'cancelled', result.cancelReason)
      this.#record(own.row)
      this.#tenantEvent(own.row, 'order.updated', null)
    }
    return { kind: 'placed', uid: request.uid }
  }

  cancel(uid: string): Answer {
    const { book, orders } = this.cache
    const removed = book.cancel(uid)
    if (!removed) return { kind: 'not_open' }
    const own = orders.get(uid)
    if (!own) throw new Error(`order ${uid} is in the book but has no state`)
    orders.delete(uid)
    own.row = this.#next(own, 'cancelled', 'user')
    this.#record(own.row)
    this.#tenantEvent(own.row, 'order.updated', null)
    this.#bookEvent(removed.levelChange)
    return { kind: 'cancelled', uid }
  }

  /** One side of a trade: the order's new totals and row, its fill, and the fill event of its tenant. */
  #fill(
    state: OrderState,
    fill: Fill,
    price: string,
    quantity: string,
    tradeUid: string,
    side: OrderSide,
    role: 'maker' | 'taker',
    status: OrderRow['status'],
    cancelReason: OrderRow['cancel_reason'],
  ): void {
    state.filled = add(state.filled, fill.quantity)
    state.notional = add(state.notional, multiply(fill.price, fill.quantity))
    state.row = this.#next(state, status, cancelReason)
    this.#record(state.row)
    const write: FillWrite = { uid: uuidv7(), order_uid: state.row.uid, trade_uid: tradeUid, tenant_id: state.row.tenant_id, side, role, price, quantity }
    this.#fills.push(write)
    this.#tenantEvent(state.row, 'fill', fillRecord({ ...write, symbol: this.locked.symbol, created_at: this.locked.now }))
  }

  /** The order's row after a change at this pass's time. */
  #next(state: OrderState, status: OrderRow['status'], cancelReason: OrderRow['cancel_reason']): OrderRow {
    const filled = state.filled.coefficient === 0n
    return {
      ...state.row,
      updated_at: this.locked.now,
      status,
      cancel_reason: cancelReason,
      filled_quantity: filled ? '0' : formatDecimalAtLeast(state.filled, this.#quantityPlaces),
      filled_notional: formatDecimal(state.notional),
      average_price: filled
        ? null
        : formatDecimalAtLeast(averagePrice(state.notional, state.filled, this.#pricePlaces + AVERAGE_PRICE_EXTRA_PLACES), this.#pricePlaces),
    }
  }

  /** What the statement writes for an order: inserted when placed in this pass, else updated (rows are never changed in place). */
  #record(row: OrderRow): void {
    if (this.#placed.has(row.uid)) this.#placed.set(row.uid, row)
    else this.#changed.set(row.uid, row)
  }

  #tenantEvent(order: OrderRow, type: TenantEventWrite['type'], fill: FillRecord | null): void {
    const ordinal = (this.#eventsPerTenant.get(order.tenant_id) ?? 0) + 1
    this.#eventsPerTenant.set(order.tenant_id, ordinal)
    // The body after its "sequence" member, which the statement numbers (see TenantEventWrite).
    const body = JSON.stringify({ type, created_at: this.#createdAt, order: orderRecord(order), fill })
    this.#tenantEvents.push({ tenant_id: order.tenant_id, ordinal, type, rest: `,${body.slice(1)}` })
  }

  #bookEvent(level: LevelChange): void {
    this.#marketEvent(++this.#marketSequence, 'book', {
      book: {
        side: level.side,
        price: formatDecimalAtLeast(level.price, this.#pricePlaces),
        quantity: level.quantity.coefficient === 0n ? '0' : formatDecimalAtLeast(level.quantity, this.#quantityPlaces),
        orders: level.orders,
      },
    })
  }

  #marketEvent(sequence: number, type: MarketEventWrite['type'], body: object): void {
    this.#marketEvents.push({ sequence, type, payload: JSON.stringify({ sequence, type, created_at: this.#createdAt, ...body }) })
  }
}
