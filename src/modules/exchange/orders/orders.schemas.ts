import { z } from 'zod'

import { parseDecimal } from '../../../core/decimal.ts'
import type { ValidationIssue } from '../../../core/errors.ts'
import { COMMON_FIELDS, listQuerySchema } from '../../../core/lists.ts'
import { commonRecordShape, decimalString, listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { customIssue, enumListParam, isoDateTime, parseInput, zodErrorToDetail } from '../../../core/validation.ts'
import { MAX_SYMBOL_LENGTH, symbolName } from '../symbols/symbols.schemas.ts'

export const ORDER_SIDES = ['buy', 'sell'] as const
export const ORDER_TYPES = ['limit', 'market', 'stop_limit', 'stop_market'] as const
/**
 * No `rejected`: an order that breaks a rule is refused (422) and never stored, and one that ends
 * unfilled is `cancelled` with its `cancel_reason` (docs/api.md, "Matching"). `pending`: a stop
 * order no trade has triggered yet (docs/matching.md, "Stop orders and good till date").
 */
export const ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'cancelled', 'pending'] as const
export type OrderSide = (typeof ORDER_SIDES)[number]
export type OrderType = (typeof ORDER_TYPES)[number]
export type OrderStatus = (typeof ORDER_STATUSES)[number]
export const CANCEL_REASONS = ['user', 'unfilled', 'self_trade', 'post_only', 'deadline', 'expired'] as const
/**
 * gtc rests until filled or cancelled; ioc trades what its pass can and cancels the rest; fok
 * fills entirely in its pass or is cancelled with nothing filled (docs/api.md, "Order lifecycle");
 * gtd rests as gtc does until its `expire_at`, then is cancelled `expired`.
 */
export const TIMES_IN_FORCE = ['gtc', 'ioc', 'fok', 'gtd'] as const
/** The furthest ahead a gtd order's `expire_at` may be. */
export const MAX_GTD_DAYS = 90
const DAY_MS = 86_400_000
export type TimeInForce = (typeof TIMES_IN_FORCE)[number]

/** Longer decimal text is refused before any arithmetic, so a huge number cannot cost CPU. */
export const MAX_DECIMAL_TEXT = 40

/**
 * A decimal sent as a JSON string (the reference types them "string (decimal)"). JSON numbers are refused: by the
 * time anything reads `0.1` or `12345678901234567.89` it has become a binary float.
 */
export const decimalText = z
  .string()
  .max(MAX_DECIMAL_TEXT, { abort: true })
  .transform((text, ctx) => {
    const value = parseDecimal(text)
    if (!value) {
      customIssue(ctx, { type: 'type_error.decimal', msg: 'value is not a valid decimal', input: text })
      return z.NEVER
    }
    return { text, value }
  })
export type DecimalInput = z.output<typeof decimalText>

/** The bank's own id for an order: printable ASCII without spaces, as FIX ClOrdID usually is. */
export const clientOrderId = z
  .string()
  .min(1)
  .max(64, { abort: true })
  .regex(/^[\x21-\x7e]+$/, 'client_order_id must be printable ASCII without spaces')

/** The body of `POST /orders`, field order = the order of `detail` items. Unknown fields are refused. */
export const createOrderBody = z.strictObject({
  client_order_id: clientOrderId.nullish(),
  symbol: symbolName,
  side: z.enum(ORDER_SIDES),
  type: z.enum(ORDER_TYPES),
  quantity: decimalText,
  price: decimalText.nullish(),
  time_in_force: z.enum(TIMES_IN_FORCE).nullish(),
  post_only: z.boolean().nullish(),
  stop_price: decimalText.nullish(),
  expire_at: isoDateTime.nullish(),
})
export type CreateOrderFields = z.output<typeof createOrderBody>
type FieldName = keyof CreateOrderFields

const FIELD_ORDER: readonly string[] = Object.keys(createOrderBody.shape)
const FIELD_SCHEMAS = Object.entries(createOrderBody.shape) as [FieldName, z.ZodType][]
const KNOWN_FIELDS: ReadonlySet<string> = new Set(FIELD_ORDER)

export interface ParsedOrderFields {
  /** Every field that parsed; a field that failed is absent here and named in `invalid`. */
  fields: Partial<CreateOrderFields>
  invalid: ReadonlySet<FieldName>
  issues: ValidationIssue[]
}

/**
 * Parses each field on its own, so rules that need the database (the symbol's trading rules) can
 * still check the fields that parsed and `detail` can list every broken rule at once.
 */
export function parseOrderFields(body: unknown, nowMs: number = Date.now()): ParsedOrderFields {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    parseInput(createOrderBody, body, 'body') // throws the 422 for a missing or non-object body
  }
  const record = body as Record<string, unknown>
  const fields: Record<string, unknown> = {}
  const invalid = new Set<FieldName>()
  const issues: ValidationIssue[] = []
  for (const [name, schema] of FIELD_SCHEMAS) {
    const result = schema.safeParse(record[name])
    if (result.success) {
      if (result.data !== undefined) fields[name] = result.data
      continue
    }
    invalid.add(name)
    for (const issue of zodErrorToDetail(result.error, 'body', record[name])) {
      issues.push({ ...issue, loc: ['body', name, ...issue.loc.slice(1)] })
    }
  }
  issues.push(...lifecycleIssues(fields as Partial<CreateOrderFields>, invalid), ...stopAndExpiryIssues(fields as Partial<CreateOrderFields>, invalid, nowMs))
  for (const name of Object.keys(record)) {
    if (!KNOWN_FIELDS.has(name)) issues.push({ type: 'value_error.extra', loc: ['body', name], msg: 'extra fields not permitted' })
  }
  return { fields: fields as Partial<CreateOrderFields>, invalid, issues }
}

/** What an order's time in force is when it names none: market orders are immediate-or-cancel. */
export function timeInForceOf(fields: Pick<Partial<CreateOrderFields>, 'type' | 'time_in_force'>): TimeInForce {
  return fields.time_in_force ?? (isMarketType(fields.type) ? 'ioc' : 'gtc')
}

/** A market or stop-market order: no price, immediate once it acts. */
export const isMarketType = (type: OrderType | undefined) => type === 'market' || type === 'stop_market'
export const isStopType = (type: OrderType | undefined) => type === 'stop_limit' || type === 'stop_market'
/** The order type a triggered stop becomes (what its price and hold rules are). */
export const baseType = (type: OrderType): 'limit' | 'market' => (isMarketType(type) ? 'market' : 'limit')
/** Time in force that rests a remainder in the book. */
export const restsInBook = (timeInForce: TimeInForce) => timeInForce === 'gtc' || timeInForce === 'gtd'

/** `2026-11-25 21:30:00.123456` (UTC, as stored) → milliseconds since the epoch. */
export const utcMs = (timestamp: string) => Date.parse(`${timestamp.replace(' ', 'T')}Z`)

/**
 * Stop orders need a `stop_price` (others take none); a gtd order needs an `expire_at` in the
 * future and at most MAX_GTD_DAYS ahead (others take none). `nowMs`: the service's clock.
 */
function stopAndExpiryIssues(fields: Partial<CreateOrderFields>, invalid: ReadonlySet<FieldName>, nowMs: number): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (!invalid.has('type') && fields.type !== undefined && !invalid.has('stop_price')) {
    if (isStopType(fields.type) && !fields.stop_price) issues.push({ type: 'missing', loc: ['body', 'stop_price'], msg: 'Field required' })
    if (!isStopType(fields.type) && fields.stop_price)
      issues.push({ type: 'value_error.extra', loc: ['body', 'stop_price'], msg: 'only stop orders take a stop_price', input: fields.stop_price.text })
  }
  if (invalid.has('time_in_force') || invalid.has('expire_at')) return issues
  const gtd = fields.time_in_force === 'gtd'
  const expireAt = fields.expire_at ?? undefined
  if (gtd && expireAt === undefined) issues.push({ type: 'missing', loc: ['body', 'expire_at'], msg: 'Field required' })
  if (!gtd && expireAt !== undefined)
    issues.push({ type: 'value_error.extra', loc: ['body', 'expire_at'], msg: 'expire_at applies only to gtd orders', input: `${expireAt.replace(' ', 'T')}Z` })
  if (gtd && expireAt !== undefined) issues.push(...expiryIssues(expireAt, nowMs))
  return issues
}

/** An expiry in the future, at most MAX_GTD_DAYS ahead of `nowMs`. */
export function expiryIssues(expireAt: string, nowMs: number): ValidationIssue[] {
  const at = utcMs(expireAt)
  const input = `${expireAt.replace(' ', 'T')}Z`
  if (at <= nowMs) return [{ type: 'value_error.datetime.not_in_future', loc: ['body', 'expire_at'], msg: 'ensure this value is in the future', input }]
  const latest = nowMs + MAX_GTD_DAYS * DAY_MS
  if (at > latest) {
    const limit = new Date(latest).toISOString()
    const msg = `ensure this value is at most ${MAX_GTD_DAYS} days ahead (${limit})`
    return [{ type: 'value_error.datetime.not_le', loc: ['body', 'expire_at'], msg, input, ctx: { limit_value: limit } }]
  }
  return []
}

/** Market orders are `ioc` only; `post_only` is for limit orders that rest (`gtc`). */
function lifecycleIssues(fields: Partial<CreateOrderFields>, invalid: ReadonlySet<FieldName>): ValidationIssue[] {
  if (invalid.has('type') || fields.type === undefined) return []
  const issues: ValidationIssue[] = []
  const timeInForce = fields.time_in_force
  if (isMarketType(fields.type) && timeInForce && timeInForce !== 'ioc') {
    issues.push({
      type: 'type_error.enum',
      loc: ['body', 'time_in_force'],
      msg: "value is not a valid enumeration member; permitted: 'ioc'",
      input: timeInForce,
      ctx: { enum_values: ['ioc'] },
    })
  }
  if (fields.post_only === true && !invalid.has('time_in_force') && (fields.type !== 'limit' || !restsInBook(timeInForceOf(fields)))) {
    issues.push({
      type: 'value_error.post_only',
      loc: ['body', 'post_only'],
      msg: 'post_only applies only to limit orders that rest (gtc or gtd)',
      input: true,
    })
  }
  return issues
}

/** Field order as declared; unknown fields last. Stable, so one field's rules keep their order. */
export function inFieldOrder(issues: ValidationIssue[]): ValidationIssue[] {
  const rank = (issue: ValidationIssue) => {
    const index = FIELD_ORDER.indexOf(String(issue.loc[1]))
    return index === -1 ? FIELD_ORDER.length : index
  }
  return [...issues].sort((a, b) => rank(a) - rank(b))
}

/** An order record's fields (docs/api.md, "Exchange market"), in order. */
export const ORDER_FIELDS = [
  ...COMMON_FIELDS,
  'tenant_id',
  'client_order_id',
  'symbol',
  'side',
  'type',
  'quantity',
  'price',
  'status',
  'filled_quantity',
  'average_price',
  'cancel_reason',
  'time_in_force',
  'post_only',
  'stop_price',
  'expire_at',
] as const

export const ORDER_ORDERABLE = ORDER_FIELDS.filter((f) => f !== 'meta_data' && f !== 'is_deleted')

export const orderListQuery = listQuerySchema(
  {
    symbol: symbolName.optional(),
    side: enumListParam(ORDER_SIDES, 'A side, or both comma-separated.').optional(),
    status: enumListParam(ORDER_STATUSES, 'A status or a comma-separated list: `open,partially_filled` lists the orders still working.').optional(),
    client_order_id: clientOrderId.optional().meta({ description: "The bank's own id of an order: at most one order of a tenant.", example: 'bank-42-0001' }),
  },
  ORDER_ORDERABLE,
)
export type OrderListQuery = z.infer<typeof orderListQuery>

// --- Answers (docs/contracts.md) ---

// Described where it is declared would move its lines; the registry names this very schema instead.
z.globalRegistry.add(createOrderBody, {
  id: 'CreateOrderRequest',
  description:
    'Decimals are JSON strings (at most 40 characters). `price` is required for limit and stop-limit orders and refused for market and stop-market orders. `stop_price` (a multiple of the tick size) is required for `stop_limit` and `stop_market` orders and refused for others: they are `pending` until a trade prints at or above it (buys) or at or below it (sells). `time_in_force` is `gtc` (the default for limit orders), `ioc`, `fok` or `gtd`; market and stop-market orders are `ioc`. `gtd` needs `expire_at` (ISO 8601 with a zone, in the future, at most 90 days ahead): the order is cancelled `expired` within a second of it. `post_only: true` (limit `gtc` or `gtd` orders only) cancels the order rather than let it trade on arrival. `client_order_id` (1–64 printable ASCII characters, unique per tenant) makes a retry safe: the same body again answers the existing order (200), a different one 409.',
})

export const orderParams = z.object({
  uid: z.string().meta({ description: "The order's uid (a UUID; anything else is 404).", example: '0b6f3c1e-2f4a-4d7b-9a51-3c2e8f1d7a60' }),
})

/** An order record (docs/api.md, "Exchange market"), in ORDER_FIELDS order. */
export const orderRecordSchema = z
  .object({
    ...commonRecordShape,
    tenant_id: uuidText,
    client_order_id: z.string().nullable().meta({ description: "The bank's own id, when it gave one." }),
    symbol: z.string().meta({ example: 'USD-IRR' }),
    side: z.enum(ORDER_SIDES),
    type: z.enum(ORDER_TYPES),
    quantity: decimalString,
    price: decimalString.nullable().meta({ description: 'Null for market and stop-market orders.' }),
    status: z.enum(ORDER_STATUSES).meta({ description: '`pending`: a stop order no trade has triggered yet; then as any order.' }),
    filled_quantity: decimalString,
    average_price: decimalString
      .nullable()
      .meta({ description: 'The volume-weighted price of its fills (price precision + 8 places); null before the first fill.' }),
    cancel_reason: z.enum(CANCEL_REASONS).nullable().meta({
      description:
        'Why it was cancelled: `user` (a cancel request), `unfilled` (what an `ioc` or market order could not fill in its pass, or a `fok` order that could not fill entirely), `self_trade` (it would have traded with its own tenant), `post_only` (a post-only order that would have traded), `deadline` (the cancel-after deadline of its tenant passed), `expired` (a `gtd` order whose `expire_at` passed). Null unless cancelled.',
    }),
    time_in_force: z
      .enum(TIMES_IN_FORCE)
      .meta({ description: '`gtc` (limit orders by default), `ioc` (market and stop-market orders always), `fok`, or `gtd` (until `expire_at`).' }),
    post_only: z.boolean().meta({ description: 'Cancelled (`post_only`) rather than trade on arrival.' }),
    stop_price: decimalString.nullable().meta({ description: 'Stop orders: the trade price that triggers them; null for others.' }),
    expire_at: timestampText.nullable().meta({ description: '`gtd` orders: when they are cancelled `expired` (UTC); null for others.' }),
  })
  .meta({ id: 'Order' })

/** `PATCH /orders/<uid>`: a resting order's new quantity, price or both (docs/api.md, "Order lifecycle"). */
export const amendOrderBody = z
  .strictObject({ quantity: decimalText.nullish(), price: decimalText.nullish(), stop_price: decimalText.nullish() })
  .superRefine((body, ctx) => {
    if (!body.quantity && !body.price && !body.stop_price) customIssue(ctx, { type: 'value_error.missing', msg: 'quantity, price or stop_price is required' })
  })
  .meta({
    id: 'AmendOrderRequest',
    description:
      "The order's new total quantity (above what has filled), its new price, its new `stop_price` (a pending stop order only), or any of them, under the symbol's rules. A smaller quantity at the same price keeps the order's place in its level; a new price or a larger quantity sends it to the back of its level, and it may trade at once.",
  })
export type AmendOrderFields = z.output<typeof amendOrderBody>

/** The most symbols one cancel-many request names. */
export const MAX_CANCEL_SYMBOLS = 20

/**
 * One symbol or a comma-separated list, case-insensitive, parsed to the distinct names in upper
 * case. The text is bounded (every name at its longest, once) before it is split.
 */
const symbolListParam = z
  .string()
  .min(1)
  .max(MAX_CANCEL_SYMBOLS * (MAX_SYMBOL_LENGTH + 1) - 1, { abort: true })
  .transform((text, ctx) => {
    const names = text.split(',')
    if (names.length > MAX_CANCEL_SYMBOLS) {
      const msg = `ensure this value has at most ${MAX_CANCEL_SYMBOLS} items`
      customIssue(ctx, { type: 'value_error.list.max_items', msg, ctx: { limit_value: MAX_CANCEL_SYMBOLS }, input: text })
      return z.NEVER
    }
    for (const name of names) {
      if (name.length === 0) {
        customIssue(ctx, { type: 'value_error.symbol', msg: 'the list names an empty symbol', input: text })
        return z.NEVER
      }
      if (name.length > MAX_SYMBOL_LENGTH) {
        customIssue(ctx, { type: 'value_error.symbol', msg: `unknown symbol ${name.toUpperCase()}`, input: name })
        return z.NEVER
      }
    }
    return [...new Set(names.map((name) => name.toUpperCase()))]
  })

/** `DELETE /orders`: which of the tenant's resting orders to cancel. */
export const cancelOrdersQuery = z.strictObject({
  symbol: symbolListParam.optional().meta({
    override: { type: 'string', maxLength: MAX_CANCEL_SYMBOLS * (MAX_SYMBOL_LENGTH + 1) - 1, example: 'USD-IRR,EUR-IRR' },
    description: `Only these symbols: one, or up to ${MAX_CANCEL_SYMBOLS} comma-separated, case-insensitive (all symbols without it). An unknown symbol is 422 \`value_error.symbol\` and cancels nothing; an inactive symbol's orders are cancelled.`,
  }),
  side: z.enum(ORDER_SIDES).optional().meta({ description: 'Only this side (both without it).' }),
  tenant_id: z.uuid().optional().meta({ description: "Admins: required, the tenant whose orders to cancel. Others: their own tenant's, if given." }),
})

/** `POST /orders/validate`: the body would be accepted. */
export const orderValidationSchema = z.object({ valid: z.literal(true) }).meta({ id: 'OrderValidation' })

export const orderListSchema = listEnvelopeSchema('OrderList', orderRecordSchema, ORDER_FIELDS)

export const cancelledOrdersSchema = z
  .object({
    cancelled: z.number().int().meta({ description: 'How many orders were cancelled.' }),
    items: z.array(orderRecordSchema).meta({ description: 'The cancelled orders, by symbol, in acceptance order.' }),
  })
  .meta({ id: 'CancelledOrders' })
