import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, multiply, subtract, ZERO } from '../../../core/decimal.ts'
import type { AccountChange, LedgerEntryWrite } from '../accounts/accounts.repository.ts'
import { ceilToPlaces, type FeeRates, settleFill } from '../accounts/money.ts'

const keyOf = (tenantId: string, currency: string) => `${tenantId} ${currency}`

/**
 * What a matching pass knows and does of its tenants' accounts (docs/accounts.md, "Settlement"):
 * each placing tenant's available amount as last committed, moved as the pass holds, settles and
 * releases, so an order the pass cannot pay for is refused before it trades; and the changes of the
 * current step, which the step's write applies (locking and re-checking every account it names).
 */
export class PassAccounts {
  readonly #available = new Map<string, DecimalValue>()
  #changes: AccountChange[] = []
  #fees = new Map<string, DecimalValue>()

  /** Balances and holds read at the pass's start. */
  constructor(accounts: readonly { tenant_id: string; currency: string; balance: string; hold: string }[]) {
    for (const a of accounts) this.#available.set(keyOf(a.tenant_id, a.currency), subtract(decimalFromStore(a.balance), decimalFromStore(a.hold)))
  }

  available(tenantId: string, currency: string): DecimalValue {
    return this.#available.get(keyOf(tenantId, currency)) ?? ZERO
  }

  #move(tenantId: string, currency: string, delta: DecimalValue): void {
    this.#available.set(keyOf(tenantId, currency), add(this.available(tenantId, currency), delta))
  }

  /** An order takes (`amount` > 0) or gives back (< 0) a hold. */
  hold(tenantId: string, currency: string, amount: DecimalValue): void {
    if (amount.coefficient === 0n) return
    this.#move(tenantId, currency, { coefficient: -amount.coefficient, scale: amount.scale })
    this.#changes.push({ tenant_id: tenantId, currency, hold: formatDecimal(amount) })
  }

  /** A ledger entry: the balance moves by `amount` (signed). */
  entry(tenantId: string, currency: string, amount: DecimalValue, entry: Omit<LedgerEntryWrite, 'amount'>): void {
    if (amount.coefficient === 0n) return
    this.#move(tenantId, currency, amount)
    this.#changes.push({ tenant_id: tenantId, currency, entries: [{ ...entry, amount: formatDecimal(amount) }] })
  }

  /** A fee the exchange center collects. */
  collect(currency: string, amount: DecimalValue): void {
    if (amount.coefficient === 0n) return
    this.#fees.set(currency, add(this.#fees.get(currency) ?? ZERO, amount))
  }

  /** The current step's changes, handed to its write; the next step starts empty. */
  takeStep(): { changes: AccountChange[]; fees: { currency: string; amount: string }[] } {
    const step = { changes: this.#changes, fees: [...this.#fees].map(([currency, amount]) => ({ currency, amount: formatDecimal(amount) })) }
    this.#changes = []
    this.#fees = new Map()
    return step
  }
}

/** Who an order is, as far as its fees go. */
export interface FeePayer {
  tenant_id: string
}

/**
 * The fee schedule an order pays under (docs/accounts.md, "Settlement and rounding"): today the symbol's maker and
 * taker rates for every order. The one place a per-tenant tier would change: holds (admission)
 * and fills (settlement) both read it.
 */
export function feeScheduleFor(_order: FeePayer, symbol: FeeRates): FeeRates {
  return symbol
}

/** A schedule's rates as decimals, parsed once per schedule rather than on every fill. */
const parsedRates = new WeakMap<FeeRates, { maker: DecimalValue; taker: DecimalValue }>()
function ratesOf(schedule: FeeRates): { maker: DecimalValue; taker: DecimalValue } {
  let rates = parsedRates.get(schedule)
  if (!rates) {
    rates = { maker: decimalFromStore(schedule.maker_fee_percent), taker: decimalFromStore(schedule.taker_fee_percent) }
    parsedRates.set(schedule, rates)
  }
  return rates
}

/** An order as settlement moves it: its holds and totals change with each fill. */
export interface SettlingOrder {
  row: FeePayer & { uid: string; side: 'buy' | 'sell'; quantity: string; price: string | null }
  filled: DecimalValue
  notional: DecimalValue
  hold: DecimalValue
  feeAccrued: DecimalValue
}

/** The symbol's part in settlement: its currencies, the quote's places and its fee rates. */
export type SettlementSymbol = FeeRates & { base: string; quote: string; quote_precision: number }

/** A fill as the book made it. */
export interface SettledFill {
  price: DecimalValue
  quantity: DecimalValue
}

/**
 * The money of a pass's fills (docs/accounts.md, "Settlement and rounding"), moved in the pass's accounts:
 * each order pays the rate of its own fee schedule, as maker or taker.
 */
export class Settlement {
  constructor(
    readonly symbol: SettlementSymbol,
    readonly accounts: PassAccounts,
  ) {}

  #rate(order: SettlingOrder, role: 'maker' | 'taker'): DecimalValue {
    return ratesOf(feeScheduleFor(order.row, this.symbol))[role]
  }

  /** What a limit buy has left to pay, before fees, for what it has not bought after `fill` (none for a market buy). */
  #stillToPay(buyer: SettlingOrder, fill: SettledFill): DecimalValue {
    if (buyer.row.price === null) return ZERO
    const notional = add(buyer.notional, multiply(fill.price, fill.quantity))
    const left = subtract(subtract(decimalFromStore(buyer.row.quantity), buyer.filled), fill.quantity)
    if (left.coefficient <= 0n) return ZERO
    const places = this.symbol.quote_precision
    return subtract(ceilToPlaces(add(notional, multiply(decimalFromStore(buyer.row.price), left)), places), ceilToPlaces(notional, places))
  }

  /** What a buy taking `quantity` at `price` pays, before and in fees: how far a market buy's hold reaches. */
  buyerCost(buyer: SettlingOrder, price: DecimalValue, quantity: DecimalValue): { amount: DecimalValue; fee: DecimalValue } {
    const s = settleFill({
      price,
      quantity,
      quotePrecision: this.symbol.quote_precision,
      buyerFilledNotional: buyer.notional,
      buyer: { feeAccrued: buyer.feeAccrued, feePercent: this.#rate(buyer, 'taker') },
      seller: { feeAccrued: ZERO, feePercent: ZERO },
    })
    return { amount: s.amount, fee: s.buyerFee }
  }

  /**
   * Moves a fill's money: the buyer pays the amount and its fee from its order's hold and receives
   * the base; the seller delivers the base from its hold and receives the amount less its fee; the
   * exchange center collects both fees. The orders' holds and accrued fees move with it. Answers
   * each side's fee, in the quote currency, as its `fee` ledger entry has it (the fill records it).
   */
  settle(taker: SettlingOrder, maker: SettlingOrder, fill: SettledFill, tradeUid: string): { taker: DecimalValue; maker: DecimalValue } {
    const buying = taker.row.side === 'buy'
    const [buyer, seller] = buying ? [taker, maker] : [maker, taker]
    const s = settleFill({
      price: fill.price,
      quantity: fill.quantity,
      quotePrecision: this.symbol.quote_precision,
      buyerFilledNotional: buyer.notional,
      buyer: { feeAccrued: buyer.feeAccrued, feePercent: this.#rate(buyer, buying ? 'taker' : 'maker') },
      seller: { feeAccrued: seller.feeAccrued, feePercent: this.#rate(seller, buying ? 'maker' : 'taker') },
    })
    if (compareDecimals(s.amount, buyer.hold) > 0) throw new Error(`order ${buyer.row.uid} holds less than its fill costs`)
    // A rate raised since the order was placed is charged only as far as its hold reaches, beyond
    // what the rest of a limit buy will cost at its price: the hold was taken at the old rate.
    const room = subtract(subtract(buyer.hold, s.amount), this.#stillToPay(buyer, fill))
    const buyerFee = compareDecimals(s.buyerFee, room) <= 0 ? s.buyerFee : room.coefficient > 0n ? room : ZERO
    const { base, quote } = this.symbol
    const { accounts } = this
    const ids = (order: SettlingOrder) => ({ order_uid: order.row.uid, trade_uid: tradeUid })
    const negative = (v: DecimalValue): DecimalValue => ({ coefficient: -v.coefficient, scale: v.scale })
    const paid = add(s.amount, buyerFee)
    accounts.entry(buyer.row.tenant_id, quote, negative(s.amount), { kind: 'trade', ...ids(buyer) })
    accounts.entry(buyer.row.tenant_id, quote, negative(buyerFee), { kind: 'fee', ...ids(buyer) })
    accounts.hold(buyer.row.tenant_id, quote, negative(paid))
    accounts.entry(buyer.row.tenant_id, base, fill.quantity, { kind: 'trade', ...ids(buyer) })
    accounts.entry(seller.row.tenant_id, base, negative(fill.quantity), { kind: 'trade', ...ids(seller) })
    accounts.hold(seller.row.tenant_id, base, negative(fill.quantity))
    accounts.entry(seller.row.tenant_id, quote, s.amount, { kind: 'trade', ...ids(seller) })
    accounts.entry(seller.row.tenant_id, quote, negative(s.sellerFee), { kind: 'fee', ...ids(seller) })
    accounts.collect(quote, add(buyerFee, s.sellerFee))
    buyer.hold = subtract(buyer.hold, paid)
    seller.hold = subtract(seller.hold, fill.quantity)
    buyer.feeAccrued = s.buyerFeeAccrued
    seller.feeAccrued = s.sellerFeeAccrued
    return buying ? { taker: buyerFee, maker: s.sellerFee } : { taker: s.sellerFee, maker: buyerFee }
  }
}
