import { add, compareDecimals, decimalFromStore, type DecimalValue, multiply, normalize, priceBand, subtract, unitOfPlaces } from '../../../core/decimal.ts'
import type { SymbolRow } from '../symbols/symbols.repository.ts'

/**
 * The money rules of accounts (docs/accounts.md), pure and exact: what an order holds, what a fee
 * is, and what one fill moves between the two tenants and the exchange center. Amounts are exact
 * decimals; whatever lands in an account is a multiple of its currency's unit (10^-precision).
 */

function aligned(a: DecimalValue, b: DecimalValue): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [a.coefficient * 10n ** BigInt(scale - a.scale), b.coefficient * 10n ** BigInt(scale - b.scale), scale]
}

/** The smallest multiple of 10^-places that is ≥ value (a negative `places`: of 10, 100, …). */
export function ceilToPlaces(value: DecimalValue, places: number): DecimalValue {
  const [x, unit, scale] = aligned(value, unitOfPlaces(places))
  const quotient = x / unit
  const ceiling = quotient * unit < x ? quotient + 1n : quotient
  return normalize({ coefficient: ceiling * unit, scale })
}

/** The largest multiple of 10^-places that is ≤ value. */
export function floorToPlaces(value: DecimalValue, places: number): DecimalValue {
  const [x, unit, scale] = aligned(value, unitOfPlaces(places))
  const quotient = x / unit
  const floor = quotient * unit > x ? quotient - 1n : quotient
  return normalize({ coefficient: floor * unit, scale })
}

function percentOf(value: DecimalValue, percent: DecimalValue): DecimalValue {
  const product = multiply(value, percent)
  return { coefficient: product.coefficient, scale: product.scale + 2 }
}

const nonNegative = (value: DecimalValue, name: string) => {
  if (value.coefficient < 0n) throw new RangeError(`${name} must not be negative`)
}

/**
 * The fee on `notional` at `percent`, rounded UP to the quote currency's precision: never
 * negative, never less than the exact fee, less than one unit above it.
 */
export function feeFor(notional: DecimalValue, percent: DecimalValue, quotePrecision: number): DecimalValue {
  nonNegative(notional, 'notional')
  nonNegative(percent, 'percent')
  return ceilToPlaces(percentOf(notional, percent), quotePrecision)
}

/** The order fields a hold depends on. */
export interface HoldOrder {
  side: 'buy' | 'sell'
  type: 'limit' | 'market'
  quantity: DecimalValue
  /** The limit price; null for market orders. */
  price: DecimalValue | null
}

/** The symbol's rules a hold depends on, with its currencies' precisions. */
export type HoldRules = Pick<SymbolRow, 'base' | 'quote' | 'reference_price' | 'daily_fluctuation_price_limit_percent'> & {
  basePrecision: number
  quotePrecision: number
}

export type FeeRates = Pick<SymbolRow, 'maker_fee_percent' | 'taker_fee_percent'>

/**
 * What an order holds while it is open: a fixed amount of one currency, or (a market buy on a
 * symbol without a price band) everything available in the quote currency until its pass ends.
 */
export type Hold = { currency: string; amount: DecimalValue } | { currency: string; amount: 'available' }

/** The higher of the two rates: the most an order can pay, whichever role its fills take. */
export function highestFeePercent(fees: FeeRates): DecimalValue {
  const maker = decimalFromStore(fees.maker_fee_percent)
  const taker = decimalFromStore(fees.taker_fee_percent)
  return compareDecimals(maker, taker) > 0 ? maker : taker
}

/**
 * The hold of an order when it is placed (docs/accounts.md, "Holds"):
 * - sell: its quantity, in the base currency;
 * - limit buy: price × quantity rounded up to the quote precision, plus the fee on that at the
 *   highest rate (rounded up);
 * - market buy: quantity × the band's ceiling (rounded up) plus its fee; without a band (no
 *   reference price), everything available in the quote currency.
 * It covers every fill the order can make: settleFill charges a buy at most this in total.
 */
export function holdFor(order: HoldOrder, rules: HoldRules, fees: FeeRates): Hold {
  if (order.side === 'sell') return { currency: rules.base, amount: normalize(order.quantity) }
  let price = order.price
  if (order.type === 'market' || price === null) {
    if (rules.reference_price === null) return { currency: rules.quote, amount: 'available' }
    price = priceBand(decimalFromStore(rules.reference_price), decimalFromStore(rules.daily_fluctuation_price_limit_percent)).max
  }
  const notional = ceilToPlaces(multiply(price, order.quantity), rules.quotePrecision)
  return { currency: rules.quote, amount: normalize(add(notional, feeFor(notional, highestFeePercent(fees), rules.quotePrecision))) }
}

/** One order's side of a fill: the order's totals before it, and the rate it pays on this fill (maker or taker). */
export interface FillParty {
  /** The order's `fee_accrued` before this fill. */
  feeAccrued: DecimalValue
  feePercent: DecimalValue
}

export interface FillSettlement {
  /** Quote the buyer pays (before its fee) and the seller receives (before its fee): the same amount. */
  amount: DecimalValue
  buyerFee: DecimalValue
  sellerFee: DecimalValue
  /** The orders' new `fee_accrued`. */
  buyerFeeAccrued: DecimalValue
  sellerFeeAccrued: DecimalValue
}

/**
 * What one fill at `price` × `quantity` moves (docs/accounts.md, "Settlement"), rounded
 * cumulatively per order so an order's totals are its exact totals rounded up — never more than
 * its hold, however many fills it takes:
 * - amount = ceil(N + p×q) − ceil(N), N the buy order's `filled_notional` before the fill: the
 *   buyer pays it and the seller receives it (nothing is created or lost);
 * - each side's fee = ceil(A + amount × rate) − ceil(A), A its order's `fee_accrued`: the buyer
 *   pays it on top, the seller receives the amount less it (never negative), the exchange collects both.
 * The buyer gets `quantity` base, the seller delivers it.
 */
export function settleFill(input: {
  price: DecimalValue
  quantity: DecimalValue
  quotePrecision: number
  /** The buy order's `filled_notional` before this fill. */
  buyerFilledNotional: DecimalValue
  buyer: FillParty
  seller: FillParty
}): FillSettlement {
  const { price, quantity, quotePrecision, buyerFilledNotional, buyer, seller } = input
  for (const [value, name] of [
    [price, 'price'],
    [quantity, 'quantity'],
    [buyerFilledNotional, 'filled notional'],
    [buyer.feeAccrued, 'fee accrued'],
    [seller.feeAccrued, 'fee accrued'],
    [buyer.feePercent, 'fee percent'],
    [seller.feePercent, 'fee percent'],
  ] as const) {
    nonNegative(value, name)
  }
  const before = ceilToPlaces(buyerFilledNotional, quotePrecision)
  const amount = normalize(subtract(ceilToPlaces(add(buyerFilledNotional, multiply(price, quantity)), quotePrecision), before))
  const side = (party: FillParty) => {
    const accrued = normalize(add(party.feeAccrued, percentOf(amount, party.feePercent)))
    const fee = normalize(subtract(ceilToPlaces(accrued, quotePrecision), ceilToPlaces(party.feeAccrued, quotePrecision)))
    return { accrued, fee }
  }
  const b = side(buyer)
  const s = side(seller)
  return { amount, buyerFee: b.fee, sellerFee: s.fee, buyerFeeAccrued: b.accrued, sellerFeeAccrued: s.accrued }
}

/** What an order has been charged in fees so far: its exact accrued fees rounded up. */
export function feesCharged(feeAccrued: DecimalValue, quotePrecision: number): DecimalValue {
  return ceilToPlaces(feeAccrued, quotePrecision)
}

export const isZero = (value: DecimalValue) => value.coefficient === 0n
