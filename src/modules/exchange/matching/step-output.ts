import { type DecimalValue, formatDecimal, formatDecimalAtLeast } from '../../../core/decimal.ts'
import { uuidv7 } from '../../../core/ids.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import {
  marketEventPayload,
  type MarketEventType,
  type MarketEventWrite,
  marketStream,
  type StreamKey,
  type TenantEventWrite,
  tenantStream,
} from '../event-log/event-log.ts'
import { bookLevel, type MarketEventBody, orderJson, tenantEventTail, type TenantEventType } from '../events/event-payloads.ts'
import { type FillRecord, fillRecord } from '../fills/fill-records.ts'
import { bookChecksum, capturedSideText, type SideTop } from '../market/book-checksum.ts'
import { tradeRecord } from '../market/trade-records.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import type { DecimalInput } from '../orders/orders.schemas.ts'
import type { ChangedOrder, FillWrite, LockedBook, MatchWrite, PlacedOrder, TradeWrite } from './matching.repository.ts'
import { averagePrice, type Fill, type LevelChange } from './order-book.ts'
import type { OrderState } from './warm-book.ts'

// average_price keeps this many digits beyond the symbol's price precision (docs/api.md, "Exchange market").
const AVERAGE_PRICE_EXTRA_PLACES = 8

/** A new order as the pass places it. */
export interface NewOrder {
  uid: string
  userId: string
  tenantId: string
  clientOrderId: string | null
  side: OrderRow['side']
  type: OrderRow['type']
  quantity: DecimalInput
  price: DecimalInput | null
  timeInForce: OrderRow['time_in_force']
  postOnly: boolean
  stopPrice?: DecimalInput | null | undefined
  /** gtd orders: `timestamp(6)` text in UTC. */
  expireAt?: string | null | undefined
}

/** Decimal text as PostgreSQL prints the stored `numeric`: `+10` and `10.` are `10`, `1.50` keeps its scale. */
export const stored = (input: DecimalInput) => formatDecimalAtLeast(input.value, input.value.scale)

/** What one step writes, before its accounts and notifications are added. */
export type StepWrite = Omit<MatchWrite, 'accounts' | 'notifications' | 'candles'>

/**
 * What a matching pass's current step writes (docs/matching.md, "An order's way"): the orders it
 * places or changes as rows, its trades and fills, and the tenants' and the symbol's events,
 * rendered as stored, each tenant's numbered from 1 within the step (the statement turns
 * ordinals into the tenant's sequence numbers). The pass decides; this renders.
 */
export class StepOutput {
  readonly #pricePlaces: number
  readonly #quantityPlaces: number
  readonly #quotePlaces: number
  readonly #createdAt: string
  #marketSequence: number
  #placed = new Map<string, PlacedOrder>()
  #changed = new Map<string, ChangedOrder>()
  #trades: TradeWrite[] = []
  #fills: FillWrite[] = []
  #tenantEvents: TenantEventWrite<TenantEventType>[] = []
  #marketEvents: MarketEventWrite<MarketEventType>[] = []
  /** The current step's events per tenant: their ordinals. */
  #eventsPerTenant = new Map<string, number>()
  /** Every tenant the pass wrote events for, across steps. */
  readonly #tenants = new Set<string>()
  #marketWritten = false
  /** Each side's text as last rendered, by the capture it was rendered from: a side no change reached is not rendered again. */
  #asks: { top: SideTop | null; text: string } = { top: null, text: '' }
  #bids: { top: SideTop | null; text: string } = { top: null, text: '' }
  #lastOrder: OrderRow | undefined
  #lastOrderJson = ''

  constructor(readonly locked: LockedBook) {
    this.#pricePlaces = Math.max(0, locked.price_precision)
    this.#quantityPlaces = Math.max(0, locked.quantity_precision)
    this.#quotePlaces = Math.max(0, locked.quote_precision)
    this.#marketSequence = locked.market_sequence
    this.#createdAt = formatTimestamp(locked.now)
  }

  /** Fills the current step holds. */
  get fills(): number {
    return this.#fills.length
  }

  /** Orders the current step places or changes. */
  get orders(): number {
    return this.#placed.size + this.#changed.size
  }

  /** The streams the pass wrote events to, across its steps. */
  streams(): StreamKey[] {
    const keys = [...this.#tenants].map(tenantStream)
    if (this.#marketWritten) keys.push(marketStream(this.locked.symbol))
    return keys
  }

  /** The step's writes, and an empty next step; undefined when the step changed no order. */
  take(expectedEpoch: number, lastOrderSeq: number): StepWrite | undefined {
    if (this.orders === 0) return undefined
    const write: StepWrite = {
      now: this.locked.now,
      expectedEpoch,
      symbol: this.locked.symbol,
      placed: [...this.#placed.values()],
      changed: [...this.#changed.values()],
      trades: this.#trades,
      fills: this.#fills,
      tenantEvents: this.#tenantEvents,
      marketEvents: this.#marketEvents,
      lastOrderSeq,
      marketSequence: this.#marketSequence,
    }
    this.#placed = new Map()
    this.#changed = new Map()
    this.#trades = []
    this.#fills = []
    this.#tenantEvents = []
    this.#marketEvents = []
    this.#eventsPerTenant = new Map()
    return write
  }

  /** A new order's row, `open` (a stop: `pending`), holding `held`: inserted by this step, with its `order.created` event. */
  placed(order: NewOrder, seq: number, holdCurrency: string, held: DecimalValue): OrderRow {
    const { now } = this.locked
    const row: OrderRow = {
      uid: order.uid,
      created_at: now,
      updated_at: now,
      is_deleted: false,
      meta_data: null,
      user_id: order.userId,
      tenant_id: order.tenantId,
      client_order_id: order.clientOrderId,
      symbol: this.locked.symbol,
      side: order.side,
      type: order.type,
      quantity: stored(order.quantity),
      price: order.price && stored(order.price),
      time_in_force: order.timeInForce,
      post_only: order.postOnly,
      status: order.stopPrice ? 'pending' : 'open',
      filled_quantity: '0',
      average_price: null,
      cancel_reason: null,
      filled_notional: '0',
      seq,
      book_epoch: 0,
      hold: formatDecimal(held),
      hold_currency: holdCurrency,
      fee_accrued: '0',
      stop_price: order.stopPrice ? stored(order.stopPrice) : null,
      expire_at: order.expireAt ?? null,
    }
    this.#placed.set(row.uid, row)
    this.tenantEvent(row, 'order.created', null)
    return row
  }

  /** What the step writes for an order: inserted when placed in this step, else updated (rows are never changed in place). */
  record(row: OrderRow): void {
    if (this.#placed.has(row.uid)) this.#placed.set(row.uid, row)
    else this.#changed.set(row.uid, row)
  }

  /** The order's row after a change at this pass's time. */
  next(state: OrderState, status: OrderRow['status'], cancelReason: OrderRow['cancel_reason']): OrderRow {
    const filled = state.filled.coefficient === 0n
    return {
      ...state.row,
      updated_at: this.locked.now,
      status,
      cancel_reason: cancelReason,
      filled_quantity: filled ? '0' : formatDecimalAtLeast(state.filled, this.#quantityPlaces),
      filled_notional: formatDecimal(state.notional),
      hold: formatDecimal(state.hold),
      fee_accrued: formatDecimal(state.feeAccrued),
      average_price: filled
        ? null
        : formatDecimalAtLeast(averagePrice(state.notional, state.filled, this.#pricePlaces + AVERAGE_PRICE_EXTRA_PLACES), this.#pricePlaces),
    }
  }

  /** A trade between `taker` and the fill's maker, with its market event; answers its uid and the fill's texts. */
  trade(taker: OrderRow, fill: Fill): { tradeUid: string; price: string; quantity: string } {
    // Time-ordered ids: a pass's trades and fills share one timestamp and list in execution order.
    const tradeUid = uuidv7()
    const price = formatDecimalAtLeast(fill.price, this.#pricePlaces)
    const quantity = formatDecimalAtLeast(fill.quantity, this.#quantityPlaces)
    const trade: TradeWrite = {
      uid: tradeUid,
      price,
      quantity,
      taker_side: taker.side,
      sequence: ++this.#marketSequence,
      maker_order_uid: fill.makerUid,
      taker_order_uid: taker.uid,
    }
    this.#trades.push(trade)
    this.#marketEvent(trade.sequence, 'trade', { trade: tradeRecord({ ...trade, symbol: this.locked.symbol, created_at: this.locked.now }) })
    this.#marketSequence++ // the trade's `candle` event, written by recordTrades (market-data/trades-recorded.ts)
    return { tradeUid, price, quantity }
  }

  /**
   * One side of a trade: its fill row and the fill event of its tenant (`row` as the fill left the
   * order), with the fee settlement charged the order for it, at the quote currency's places.
   */
  fill(row: OrderRow, trade: { tradeUid: string; price: string; quantity: string }, side: OrderRow['side'], role: 'maker' | 'taker', fee: DecimalValue): void {
    const write: FillWrite = {
      uid: uuidv7(),
      order_uid: row.uid,
      trade_uid: trade.tradeUid,
      tenant_id: row.tenant_id,
      side,
      role,
      price: trade.price,
      quantity: trade.quantity,
      fee: formatDecimalAtLeast(fee, this.#quotePlaces),
      fee_currency: this.locked.quote,
    }
    this.#fills.push(write)
    this.tenantEvent(row, 'fill', fillRecord({ ...write, symbol: this.locked.symbol, created_at: this.locked.now }))
  }

  tenantEvent(order: OrderRow, type: TenantEventType, fill: FillRecord | null): void {
    const ordinal = (this.#eventsPerTenant.get(order.tenant_id) ?? 0) + 1
    this.#eventsPerTenant.set(order.tenant_id, ordinal)
    this.#tenants.add(order.tenant_id)
    this.#tenantEvents.push({ tenant_id: order.tenant_id, ordinal, type, rest: tenantEventTail(type, this.#createdAt, this.#orderJson(order), fill) })
  }

  /**
   * Rows are never changed in place (`next` makes a new one), and an order's `fill` and
   * `order.updated` events carry the same row: its JSON is rendered once.
   */
  #orderJson(row: OrderRow): string {
    if (row !== this.#lastOrder) {
      this.#lastOrder = row
      this.#lastOrderJson = orderJson(row)
    }
    return this.#lastOrderJson
  }

  /** A level's change, with the checksum of the book as the change left it (docs/api.md, "Book integrity"). */
  bookEvent(level: LevelChange): void {
    const sequence = ++this.#marketSequence
    const checksum = bookChecksum(this.#sideText(this.#asks, level.top.asks), this.#sideText(this.#bids, level.top.bids))
    this.#marketEvent(sequence, 'book', { book: { ...bookLevel(level, this.#pricePlaces, this.#quantityPlaces), checksum } })
  }

  #sideText(last: { top: SideTop | null; text: string }, top: SideTop): string {
    if (last.top !== top) {
      last.top = top
      last.text = capturedSideText(top, this.#pricePlaces, this.#quantityPlaces)
    }
    return last.text
  }

  #marketEvent(sequence: number, type: MarketEventType, body: MarketEventBody): void {
    this.#marketWritten = true
    this.#marketEvents.push({ sequence, type, payload: marketEventPayload(sequence, type, this.#createdAt, body) })
  }
}
