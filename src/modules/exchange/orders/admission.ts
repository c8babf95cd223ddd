import { compareDecimals, decimalFromStore, type DecimalValue, subtract, unitOfPlaces } from '../../../core/decimal.ts'
import type { ValidationIssue } from '../../../core/errors.ts'
import { insufficientBalanceIssue } from '../accounts/accounts.ts'
import { type FeeRates, holdFor, type HoldRules } from '../accounts/money.ts'
import { feeScheduleFor } from '../settlement/settlement.ts'
import { marketRuleIssues, type MarketRules, notionalIssue } from './order-rules.ts'
import type { OrderRow } from './orders.repository.ts'
import { baseType, type DecimalInput, isStopType, type OrderSide, type OrderType, type ParsedOrderFields } from './orders.schemas.ts'

/** A new order as admission sees it. */
export interface AdmissionOrder {
  tenantId: string
  symbol: string
  side: OrderSide
  type: OrderType
  quantity: DecimalInput
  price: DecimalInput | null
  parsed: Pick<ParsedOrderFields, 'fields' | 'invalid'>
}

/** What an order is admitted against: the symbol's rules and currencies, and the tenant's state. */
export interface AdmissionRules extends MarketRules, FeeRates {
  base: string
  quote: string
  reference_price: string | null
  daily_fluctuation_price_limit_percent: string
  base_precision: number
  quote_precision: number
}

export interface AdmissionState {
  /** Orders of the tenant resting in the symbol's book now. */
  openOrders: number
  /** MAX_OPEN_ORDERS_PER_SYMBOL. */
  maxOpenOrders: number
  /** What the tenant has available in a currency of the symbol. */
  available: (currency: string) => DecimalValue
}

export type Admission = { admitted: true; currency: string; hold: DecimalValue } | { admitted: false; issues: ValidationIssue[] }

/**
 * Whether a new order is admitted (docs/matching.md, "An order's way"), in this order: the symbol's
 * rules, the tenant's open orders on the symbol (limit orders only: a market order never rests),
 * and the hold it takes against what is available. The one decision both the matching pass (under
 * the book's lock) and the dry run (`/orders/validate`, on what is committed) make, so they refuse
 * with the same bodies. Admitted: the currency and amount the order holds.
 */
export function admit(order: AdmissionOrder, rules: AdmissionRules, state: AdmissionState): Admission {
  const issues = marketRuleIssues(order.parsed, rules)
  if (issues.length > 0) return { admitted: false, issues }
  // A pending stop is a working order as a resting one is; a market order never rests.
  if (order.type !== 'market' && state.openOrders >= state.maxOpenOrders)
    return { admitted: false, issues: [tooManyOpenOrders(order.symbol, state.maxOpenOrders)] }
  const hold = holdFor(
    // A stop holds at placement what its order would once triggered, so it never fails for funds then.
    { side: order.side, type: baseType(order.type), quantity: order.quantity.value, price: order.price?.value ?? null },
    holdRulesOf(rules),
    feeScheduleFor({ tenant_id: order.tenantId }, rules),
  )
  const available = state.available(hold.currency)
  const held = hold.amount === 'available' ? available : hold.amount
  if (held.coefficient <= 0n || compareDecimals(available, held) < 0) {
    const precision = hold.currency === rules.quote ? rules.quote_precision : rules.base_precision
    const required = hold.amount === 'available' ? unitOfPlaces(precision) : hold.amount
    return { admitted: false, issues: [insufficientBalanceIssue(hold.currency, available, required, precision, 'quantity', order.quantity.text)] }
  }
  return { admitted: true, currency: hold.currency, hold: held }
}

/** A resting order as an amend finds it: its row, what has filled and what it holds. */
export interface AmendedOrder {
  row: OrderRow
  filled: DecimalValue
  hold: DecimalValue
}

export type AmendAdmission =
  | { admitted: false; issues: ValidationIssue[] }
  /** The amend names the order's current values: nothing to do. */
  | { admitted: 'unchanged' }
  /** `more`: what the new hold takes beyond the old one (negative: gives back). */
  | {
      admitted: true
      quantity: DecimalValue
      price: DecimalValue | null
      stopPrice: DecimalValue | null
      samePrice: boolean
      sameStop: boolean
      smaller: boolean
      currency: string
      hold: DecimalValue
      more: DecimalValue
    }

/**
 * Whether an amend of a resting limit order or a pending stop is admitted (docs/api.md, "Order
 * lifecycle"): the new values against the symbol's rules, a quantity above what has filled, a
 * `stop_price` only while the stop is pending, and the larger hold it may need against what is
 * available. A stop-market order held what was available (no reference price) keeps that hold.
 */
export function admitAmend(
  own: AmendedOrder,
  request: { quantity: DecimalInput | null; price: DecimalInput | null; stopPrice?: DecimalInput | null },
  rules: AdmissionRules,
  available: (currency: string) => DecimalValue,
): AmendAdmission {
  const { row } = own
  const stopRequest = request.stopPrice ?? null
  if (stopRequest && row.status !== 'pending') return { admitted: false, issues: [notPendingStop(stopRequest.text, row.type)] }
  const oldQuantity = decimalFromStore(row.quantity)
  const oldPrice = row.price === null ? null : decimalFromStore(row.price)
  const oldStop = row.stop_price === null ? null : decimalFromStore(row.stop_price)
  const quantity = request.quantity?.value ?? oldQuantity
  const price = request.price?.value ?? oldPrice
  const stopPrice = stopRequest?.value ?? oldStop
  const fields = {
    type: row.type,
    ...(request.quantity && { quantity: request.quantity }),
    ...(request.price && { price: request.price }),
    ...(stopRequest && { stop_price: stopRequest }),
  }
  const issues = marketRuleIssues({ fields, invalid: new Set(request.price ? [] : ['price' as const]) }, rules)
  if (request.quantity && issues.length === 0 && compareDecimals(quantity, own.filled) <= 0)
    issues.push(notAboveFilled(request.quantity.text, row.filled_quantity))
  // With one of the two sent, the minimum notional is of the new value times the kept one.
  // (A stop price alone changes neither.)
  const notionalField = request.quantity ? (['quantity', request.quantity.text] as const) : request.price ? (['price', request.price.text] as const) : undefined
  if (issues.length === 0 && notionalField && !(request.quantity && request.price)) {
    const [field, input] = notionalField
    const notional = notionalIssue(rules, baseType(row.type), quantity, price, field, input)
    if (notional) issues.push(notional)
  }
  if (issues.length > 0) return { admitted: false, issues }
  const same = (a: DecimalValue | null, b: DecimalValue | null) => (a === null || b === null ? a === b : compareDecimals(a, b) === 0)
  const samePrice = same(price, oldPrice)
  const sameStop = same(stopPrice, oldStop)
  const quantityChange = compareDecimals(quantity, oldQuantity)
  if (samePrice && sameStop && quantityChange === 0) return { admitted: 'unchanged' }

  const type = baseType(row.type)
  const hold = holdFor({ side: row.side, type, quantity: subtract(quantity, own.filled), price }, holdRulesOf(rules), feeScheduleFor(row, rules))
  const amount = hold.amount === 'available' ? own.hold : hold.amount
  const more = subtract(amount, own.hold)
  const have = available(hold.currency)
  if (more.coefficient > 0n && compareDecimals(have, more) < 0) {
    const precision = hold.currency === rules.quote ? rules.quote_precision : rules.base_precision
    const [field, input] = request.quantity ? (['quantity', request.quantity.text] as const) : (['price', request.price!.text] as const)
    return { admitted: false, issues: [insufficientBalanceIssue(hold.currency, have, more, precision, field, input)] }
  }
  return { admitted: true, quantity, price, stopPrice, samePrice, sameStop, smaller: quantityChange < 0, currency: hold.currency, hold: amount, more }
}

/** Only a pending stop order has a stop price to move: a triggered one is a limit or market order now. */
function notPendingStop(input: string, type: OrderType): ValidationIssue {
  const msg = isStopType(type) ? 'the stop order has triggered: its stop_price can no longer change' : 'only stop orders have a stop_price'
  return { type: 'value_error.extra', loc: ['body', 'stop_price'], msg, input }
}

/** An amend may not bring an order's quantity down to (or below) what has already filled. */
function notAboveFilled(input: string, filled: string): ValidationIssue {
  return {
    type: 'value_error.number.not_gt',
    loc: ['body', 'quantity'],
    msg: `ensure this value is greater than ${filled}, the quantity already filled`,
    input,
    ctx: { limit_value: filled },
  }
}

const holdRules = new WeakMap<AdmissionRules, HoldRules>()

/** The symbol's rules as `holdFor` reads them, made once per rules object (a pass admits many orders). */
export function holdRulesOf(rules: AdmissionRules): HoldRules {
  let hold = holdRules.get(rules)
  if (!hold) {
    hold = { ...rules, basePrecision: rules.base_precision, quotePrecision: rules.quote_precision }
    holdRules.set(rules, hold)
  }
  return hold
}

export function tooManyOpenOrders(symbol: string, limit: number): ValidationIssue {
  return {
    type: 'value_error.too_many_open_orders',
    loc: ['body', 'symbol'],
    msg: `at most ${limit} orders of a tenant may be open on ${symbol} at once`,
    input: symbol,
    ctx: { limit },
  }
}
