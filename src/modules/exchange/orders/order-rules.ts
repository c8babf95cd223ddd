import {
  compareDecimals,
  decimalFromStore,
  type DecimalValue,
  formatDecimal,
  hasAtMostPlaces,
  isMultipleOf,
  isPositive,
  multiply,
  type PriceBand,
  priceBand,
  unitOfPlaces,
} from '../../../core/decimal.ts'
import type { ValidationIssue } from '../../../core/errors.ts'
import type { SymbolRow } from '../symbols/symbols.repository.ts'
import { baseType, type CreateOrderFields, type DecimalInput, isMarketType, isStopType, type ParsedOrderFields } from './orders.schemas.ts'

/** What an order is checked against (docs/api.md, "Exchange market"). */
export type MarketRules = Pick<
  SymbolRow,
  | 'symbol'
  | 'is_active'
  | 'price_precision'
  | 'quantity_precision'
  | 'min_order_quantity'
  | 'tick_size'
  | 'daily_fluctuation_price_limit_percent'
  | 'reference_price'
  | 'max_order_quantity'
  | 'min_notional'
>

type Field = 'symbol' | 'quantity' | 'price' | 'stop_price'

/** A market's decimal rules, parsed once per symbol row rather than on every order. */
interface ParsedRules {
  minOrderQuantity: DecimalValue
  tickSize: DecimalValue
  band: PriceBand | null
  maxOrderQuantity: DecimalValue | null
  minNotional: DecimalValue | null
  referencePrice: DecimalValue | null
}
const parsedRules = new WeakMap<MarketRules, ParsedRules>()

function rulesOf(market: MarketRules): ParsedRules {
  let rules = parsedRules.get(market)
  if (!rules) {
    rules = {
      minOrderQuantity: decimalFromStore(market.min_order_quantity),
      tickSize: decimalFromStore(market.tick_size),
      band:
        market.reference_price === null
          ? null
          : priceBand(decimalFromStore(market.reference_price), decimalFromStore(market.daily_fluctuation_price_limit_percent)),
      maxOrderQuantity: market.max_order_quantity === null ? null : decimalFromStore(market.max_order_quantity),
      minNotional: market.min_notional === null ? null : decimalFromStore(market.min_notional),
      referencePrice: market.reference_price === null ? null : decimalFromStore(market.reference_price),
    }
    parsedRules.set(market, rules)
  }
  return rules
}

const issue = (field: Field, type: string, msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationIssue =>
  ctx ? { type, loc: ['body', field], msg, input, ctx } : { type, loc: ['body', field], msg, input }

/**
 * The rules that need the symbol, for every field that parsed. Decimal limits in `ctx` are strings
 * (exact, as the symbol stores them); counts such as `decimal_places` are numbers.
 */
export function marketRuleIssues({ fields, invalid }: Pick<ParsedOrderFields, 'fields' | 'invalid'>, market: MarketRules | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (fields.symbol !== undefined) {
    if (!market) issues.push(issue('symbol', 'value_error.symbol', `unknown symbol ${fields.symbol}`, fields.symbol))
    else if (!market.is_active) issues.push(issue('symbol', 'value_error.symbol', `symbol ${fields.symbol} is not active`, fields.symbol))
  }
  if (fields.quantity) issues.push(...quantityIssues(fields.quantity, market))
  if (!invalid.has('price')) issues.push(...priceIssues(fields, invalid, market))
  if (market && fields.quantity && isPositive(fields.quantity.value) && !invalid.has('price') && !invalid.has('type')) {
    const price = isMarketType(fields.type) ? null : (fields.price?.value ?? undefined)
    if (price !== undefined && (price === null || isPositive(price))) {
      const notional = notionalIssue(market, baseType(fields.type!), fields.quantity.value, price, 'quantity', fields.quantity.text)
      if (notional) issues.push(notional)
    }
  }
  if (fields.stop_price && isStopType(fields.type)) issues.push(...stopPriceIssues(fields.stop_price, market))
  return issues
}

/**
 * A stop price is a price of the symbol (positive, on its tick and precision) but not bound by
 * today's band: a stop far from the market is the point of one (docs/matching.md).
 */
function stopPriceIssues({ value, text }: DecimalInput, market: MarketRules | undefined): ValidationIssue[] {
  if (!isPositive(value)) return [issue('stop_price', 'value_error.number.not_gt', 'ensure this value is greater than 0', text, { limit_value: '0' })]
  if (!market) return []
  const issues: ValidationIssue[] = []
  if (!isMultipleOf(value, rulesOf(market).tickSize)) {
    const msg = `ensure this value is a multiple of ${market.tick_size}`
    issues.push(issue('stop_price', 'value_error.number.not_multiple', msg, text, { multiple_of: market.tick_size }))
  }
  issues.push(...precisionIssues('stop_price', value, text, market.price_precision))
  return issues
}

/**
 * The symbol's minimum notional (docs/api.md, "Order limits"): price × quantity, a market order's
 * at the reference price (a market order on a symbol without one has no notional to check, and is
 * bounded by its hold instead). `field`/`input` name what the answer points at.
 */
export function notionalIssue(
  market: MarketRules,
  type: 'limit' | 'market',
  quantity: DecimalValue,
  price: DecimalValue | null,
  field: Field,
  input: string,
): ValidationIssue | undefined {
  const { minNotional, referencePrice } = rulesOf(market)
  const at = type === 'market' ? referencePrice : price
  if (minNotional === null || at === null || compareDecimals(multiply(quantity, at), minNotional) >= 0) return undefined
  const min = market.min_notional!
  return issue(field, 'value_error.min_notional', `ensure price × quantity is at least ${min}, the minimum notional of ${market.symbol}`, input, {
    min_notional: min,
  })
}

function quantityIssues(quantity: DecimalInput, market: MarketRules | undefined): ValidationIssue[] {
  const { value, text } = quantity
  if (!isPositive(value)) return [issue('quantity', 'value_error.number.not_gt', 'ensure this value is greater than 0', text, { limit_value: '0' })]
  if (!market) return []
  const issues: ValidationIssue[] = []
  if (compareDecimals(value, rulesOf(market).minOrderQuantity) < 0) {
    issues.push(
      issue('quantity', 'value_error.number.not_ge', `ensure this value is greater than or equal to ${market.min_order_quantity}`, text, {
        limit_value: market.min_order_quantity,
      }),
    )
  }
  const { maxOrderQuantity } = rulesOf(market)
  if (maxOrderQuantity !== null && compareDecimals(value, maxOrderQuantity) > 0) {
    issues.push(
      issue('quantity', 'value_error.number.not_le', `ensure this value is less than or equal to ${market.max_order_quantity}`, text, {
        limit_value: market.max_order_quantity,
      }),
    )
  }
  issues.push(...precisionIssues('quantity', value, text, market.quantity_precision))
  return issues
}

function priceIssues(fields: Partial<CreateOrderFields>, invalid: ParsedOrderFields['invalid'], market: MarketRules | undefined): ValidationIssue[] {
  const price = fields.price ?? undefined
  if (isMarketType(fields.type)) {
    return price ? [issue('price', 'value_error.extra', `${fields.type === 'market' ? 'market' : 'stop-market'} orders take no price`, price.text)] : []
  }
  if (!price) {
    // An unknown type (already reported) says nothing about whether a price was needed.
    return (fields.type === 'limit' || fields.type === 'stop_limit') && !invalid.has('type')
      ? [{ type: 'missing', loc: ['body', 'price'], msg: 'Field required' }]
      : []
  }
  const { value, text } = price
  if (!isPositive(value)) return [issue('price', 'value_error.number.not_gt', 'ensure this value is greater than 0', text, { limit_value: '0' })]
  if (!market) return []
  const issues: ValidationIssue[] = []
  const { band, tickSize } = rulesOf(market)
  if (band) {
    if (compareDecimals(value, band.min) < 0) {
      const limit = formatDecimal(band.min)
      issues.push(issue('price', 'value_error.number.not_ge', `ensure this value is greater than or equal to ${limit}`, text, { limit_value: limit }))
    } else if (compareDecimals(value, band.max) > 0) {
      const limit = formatDecimal(band.max)
      issues.push(issue('price', 'value_error.number.not_le', `ensure this value is less than or equal to ${limit}`, text, { limit_value: limit }))
    }
  }
  if (!isMultipleOf(value, tickSize)) {
    issues.push(
      issue('price', 'value_error.number.not_multiple', `ensure this value is a multiple of ${market.tick_size}`, text, { multiple_of: market.tick_size }),
    )
  }
  issues.push(...precisionIssues('price', value, text, market.price_precision))
  return issues
}

/**
 * At most `places` decimal places; a negative precision (quantities of USD-IRR trade in tens) is
 * reported as the multiple it demands, which says more than "-1 decimal places".
 */
function precisionIssues(field: Field, value: DecimalValue, text: string, places: number): ValidationIssue[] {
  if (hasAtMostPlaces(value, places)) return []
  if (places >= 0) {
    return [issue(field, 'value_error.decimal.max_places', `ensure that there are no more than ${places} decimal places`, text, { decimal_places: places })]
  }
  const multiple = formatDecimal(unitOfPlaces(places))
  return [issue(field, 'value_error.number.not_multiple', `ensure this value is a multiple of ${multiple}`, text, { multiple_of: multiple })]
}
