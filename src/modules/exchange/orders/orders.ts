import { randomUUID } from 'node:crypto'

import { assertTenantAccess, isAdmin, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { decimalFromStore, decimalsEqual, subtract, ZERO } from '../../../core/decimal.ts'
import { conflict, echoed, forbidden, notFound, validationError, type ValidationIssue } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { parseInput } from '../../../core/validation.ts'
import { type AccountRow, findAccount, findCurrencyPrecision } from '../accounts/accounts.repository.ts'
import { findSymbolByName } from '../symbols/symbols.repository.ts'
import { admit } from './admission.ts'
import { marketRuleIssues, type MarketRules } from './order-rules.ts'
import {
  CANCELLABLE_STATUSES,
  countOpenOrders,
  findOrder,
  findOrderByClientOrderId,
  listOrderRows,
  type OrderRow,
  symbolsWithRestingOrdersOf,
} from './orders.repository.ts'
import {
  amendOrderBody,
  cancelOrdersQuery,
  type CreateOrderFields,
  inFieldOrder,
  orderListQuery,
  type ParsedOrderFields,
  parseOrderFields,
  timeInForceOf,
} from './orders.schemas.ts'

export const ORDERS_READ = 'orders:read'
export const ORDERS_WRITE = 'orders:write'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * An order uid as every operation matches it: a UUID in any case names the same order, in the
 * database and in what the matching passes hold (lower case), so an order readable by one
 * spelling is cancellable by it (docs/api.md, "Exchange market"). Anything else is left as sent:
 * it names no order (404). The length is checked before the pattern.
 */
function orderUid(uid: string): string {
  return uid.length === 36 && UUID.test(uid) ? uid.toLowerCase() : uid
}

export interface CreatedOrder {
  order: OrderRow
  /** False when the tenant's `client_order_id` already named this order (a retried submission). */
  created: boolean
}

/** What a valid new order is, before its matching pass. */
interface CheckedOrder {
  principal: Principal
  parsed: ParsedOrderFields
  fields: CreateOrderFields
  market: MarketRules
}

/**
 * Everything placing an order checks before it is matched, in order: the caller's scope (before the
 * body is read), the body, the symbol's rules (as cached, then read afresh when they refuse it, so
 * a rule changed a moment ago is not held against the order), and a reused `client_order_id`.
 * Returns the order to place, or the order a retried submission names.
 */
async function checkOrder(ctx: RequestContext, readBody: () => unknown): Promise<CheckedOrder | { existing: CreatedOrder }> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const parsed = parseOrderFields(await readBody(), ctx.services.matching.clock())
  const { fields } = parsed
  const cached = fields.symbol !== undefined ? (await ctx.services.symbolsCache.markets()).get(fields.symbol) : undefined
  let market = cached
  let issues = [...parsed.issues, ...marketRuleIssues(parsed, cached)]
  if (issues.length > 0 && fields.symbol !== undefined) {
    market = await findSymbolByName(ctx.services.db, fields.symbol)
    issues = [...parsed.issues, ...marketRuleIssues(parsed, market)]
  }
  if (issues.length > 0) return { existing: await replayOrRefuse(ctx, principal, fields, issues) }
  return { principal, parsed, fields: fields as CreateOrderFields, market: market! }
}

/** A retry must get the original answer even if the market's rules changed since; anything else is refused. */
async function replayOrRefuse(ctx: RequestContext, principal: Principal, fields: Partial<CreateOrderFields>, issues: ValidationIssue[]): Promise<CreatedOrder> {
  const clientOrderId = fields.client_order_id ?? null
  const existing = clientOrderId ? await findOrderByClientOrderId(ctx.services.db, principal.tenantId, clientOrderId) : undefined
  if (existing) return replay(existing, fields)
  throw validationError(inFieldOrder(issues))
}

/**
 * Places an order and answers it after its own matching pass (docs/api.md, "Matching"): a limit
 * order that crossed the book is `partially_filled` or `filled`, a market order `filled` or
 * `cancelled`. `readBody` is called after the caller is authorised, so a bad token or a missing
 * scope is reported before anything about the body.
 */
export async function createOrder(ctx: RequestContext, readBody: () => unknown): Promise<CreatedOrder> {
  const checked = await checkOrder(ctx, readBody)
  if ('existing' in checked) return checked.existing
  const { principal, parsed, fields, market } = checked
  const outcome = await ctx.services.matching.place({
    uid: randomUUID(),
    userId: principal.clientId,
    tenantId: principal.tenantId,
    clientOrderId: fields.client_order_id ?? null,
    symbol: market.symbol,
    side: fields.side,
    type: fields.type,
    quantity: fields.quantity,
    price: fields.price ?? null,
    timeInForce: timeInForceOf(fields),
    postOnly: fields.post_only ?? false,
    stopPrice: fields.stop_price ?? null,
    expireAt: fields.expire_at ?? null,
    parsed,
  })
  if (outcome.kind === 'placed') return { order: outcome.order, created: true }
  if (outcome.kind === 'existing') return replay(outcome.order, fields)
  return replayOrRefuse(ctx, principal, fields, outcome.issues)
}

/**
 * A dry run of `createOrder`: answers exactly what placing the order would answer for a refused
 * order (401, 403, 409, 422 with the same body), or `{ valid: true }`. Nothing is stored, matched or
 * counted as an order; a resubmission of an existing identical order is valid (placing it would
 * answer that order).
 */
export async function validateOrder(ctx: RequestContext, readBody: () => unknown): Promise<{ valid: true }> {
  const checked = await checkOrder(ctx, readBody)
  if ('existing' in checked) return { valid: true }
  const { principal, fields } = checked
  const clientOrderId = fields.client_order_id ?? null
  const existing = clientOrderId ? await findOrderByClientOrderId(ctx.services.db, principal.tenantId, clientOrderId) : undefined
  if (existing) {
    replay(existing, fields)
    return { valid: true }
  }
  await assertAdmitted(ctx, principal.tenantId, fields, checked.parsed)
  return { valid: true }
}

/**
 * The dry run's admission: the one the matching pass decides (admission.ts), on the
 * symbol, open orders and accounts as committed now rather than under the book's lock.
 */
async function assertAdmitted(ctx: RequestContext, tenantId: string, fields: CreateOrderFields, parsed: ParsedOrderFields): Promise<void> {
  const db = ctx.services.db
  const symbol = await findSymbolByName(db, fields.symbol)
  if (!symbol) return
  const [basePrecision, quotePrecision, openOrders, base, quote] = await Promise.all([
    findCurrencyPrecision(db, symbol.base),
    findCurrencyPrecision(db, symbol.quote),
    fields.type !== 'market' ? countOpenOrders(db, tenantId, symbol.symbol) : 0,
    findAccount(db, tenantId, symbol.base),
    findAccount(db, tenantId, symbol.quote),
  ])
  const availableOf = (account: AccountRow | undefined) => (account ? subtract(decimalFromStore(account.balance), decimalFromStore(account.hold)) : ZERO)
  const rules = { ...symbol, base_precision: basePrecision ?? 0, quote_precision: quotePrecision ?? 0 }
  const admission = admit({ ...fields, tenantId, price: fields.price ?? null, parsed }, rules, {
    openOrders,
    maxOpenOrders: ctx.services.matching.maxOpenOrdersPerSymbol,
    available: (currency) => availableOf(currency === symbol.base ? base : quote),
  })
  if (!admission.admitted) throw validationError(inFieldOrder(admission.issues))
}

/** The same request again answers the existing order; another request under its id is a conflict. */
function replay(existing: OrderRow, fields: Partial<CreateOrderFields>): CreatedOrder {
  if (sameRequest(existing, fields)) return { order: existing, created: false }
  throw conflict(`client_order_id ${existing.client_order_id} was already used for a different order (${existing.uid})`)
}

/** Decimals compare by value: `"1.50"` resubmitted as `"1.5"` is the same order. */
function sameRequest(existing: OrderRow, fields: Partial<CreateOrderFields>): boolean {
  const price = fields.price ?? null
  const stopPrice = fields.stop_price ?? null
  return (
    fields.symbol === existing.symbol &&
    fields.side === existing.side &&
    fields.type === existing.type &&
    timeInForceOf(fields) === existing.time_in_force &&
    (fields.post_only ?? false) === existing.post_only &&
    fields.quantity !== undefined &&
    decimalsEqual(fields.quantity.value, decimalFromStore(existing.quantity)) &&
    (price === null || existing.price === null ? price === existing.price : decimalsEqual(price.value, decimalFromStore(existing.price))) &&
    (stopPrice === null || existing.stop_price === null
      ? stopPrice === existing.stop_price
      : decimalsEqual(stopPrice.value, decimalFromStore(existing.stop_price))) &&
    (fields.expire_at ?? null) === (existing.expire_at === null ? null : formatTimestamp(existing.expire_at).replace('T', ' '))
  )
}

/** Clients see their tenant's orders; admins see every tenant's. */
export async function listOrders(ctx: RequestContext, input: unknown): Promise<Page<OrderRow>> {
  const principal = await ctx.auth.require(ORDERS_READ)
  const query = parseInput(orderListQuery, input, 'query')
  const tenantId = isAdmin(principal) ? undefined : principal.tenantId
  // The page is shared by every request that joined its run: read it, never change it.
  return ctx.services.orderLists.read(`${tenantId ?? '*'} ${JSON.stringify(query)}`, async () => {
    const page = await listOrderRows(ctx.services.db, query, tenantId)
    return { ...page, offset: query.offset, limit: query.limit }
  })
}

export async function getOrder(ctx: RequestContext, uid: string): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_READ)
  const row = await existingOrder(ctx, orderUid(uid))
  assertTenantAccess(principal, row.tenant_id)
  return row
}

/**
 * Cancels what is left of an open or partially filled order of the caller's tenant
 * (`cancel_reason: "user"`), through its symbol's matching pass so the book and the order change
 * together. Admins read across tenants but do not trade for them, so another tenant's order is 403
 * for everyone; a filled or cancelled order is 409.
 */
export async function cancelOrder(ctx: RequestContext, sent: string): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const uid = orderUid(sent)
  const home = await orderHome(ctx, uid)
  assertOwnTenant(principal, home.tenantId)
  if (home.open) {
    const outcome = await ctx.services.matching.cancel(home.symbol, uid)
    if (outcome.kind === 'cancelled') return outcome.order
  }
  throw conflict(`Order ${echoed(uid)} is ${await statusNow(ctx, uid)}; only open or partially filled orders can be cancelled`)
}

/**
 * Where an order lives, and whether it may still rest: from what this process remembers (the
 * pass then finds out whether it still rests), else read (404 when there is no such order).
 */
async function orderHome(ctx: RequestContext, uid: string): Promise<{ symbol: string; tenantId: string; open: boolean }> {
  const known = UUID.test(uid) ? ctx.services.matching.homeOf(uid) : undefined
  if (known) return { ...known, open: true }
  const row = await existingOrder(ctx, uid)
  ctx.services.matching.remember(row)
  return { symbol: row.symbol, tenantId: row.tenant_id, open: CANCELLABLE_STATUSES.includes(row.status) }
}

/** The status a refused cancel or amend reports, as stored now; 404 if a remembered order is gone. */
async function statusNow(ctx: RequestContext, uid: string): Promise<OrderRow['status']> {
  const row = await findOrder(ctx.services.db, uid)
  if (!row) throw notFound(`Order ${echoed(uid)} not found`)
  return row.status
}

/**
 * Amends an open or partially filled order of the caller's tenant (docs/api.md, "Order
 * lifecycle"), in its symbol's matching pass: the new values are checked against the symbol's
 * rules as they stand under the book's lock, against what has filled and against the balance the
 * new hold needs. Answers the order as its pass left it (possibly traded, if it moved). Another
 * tenant's order is 403 for everyone; a filled or cancelled order, or one on an inactive symbol, 409.
 */
export async function amendOrder(ctx: RequestContext, sent: string, readBody: () => unknown): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const uid = orderUid(sent)
  const body = parseInput(amendOrderBody, await readBody(), 'body')
  const home = await orderHome(ctx, uid)
  assertOwnTenant(principal, home.tenantId)
  if (home.open) {
    const amend = { uid, tenantId: home.tenantId, quantity: body.quantity ?? null, price: body.price ?? null, stopPrice: body.stop_price ?? null }
    const outcome = await ctx.services.matching.amend(home.symbol, amend)
    if (outcome.kind === 'amended') return outcome.order
    if (outcome.kind === 'unchanged') return existingOrder(ctx, uid)
    if (outcome.kind === 'refused') throw validationError(inFieldOrder(outcome.issues))
    if (outcome.kind === 'not_active') throw conflict(`Symbol ${home.symbol} is not active: its orders can be cancelled, not amended`)
  }
  throw conflict(`Order ${echoed(uid)} is ${await statusNow(ctx, uid)}; only open or partially filled orders can be amended`)
}

/**
 * Cancels every open or partially filled order of a tenant, on the symbols named or all, one side or
 * both (docs/api.md, "Order lifecycle"): a desk pulling its quotes. Each symbol's orders are
 * cancelled in that symbol's matching pass, so an order is either cancelled here or traded before.
 * Clients cancel their own tenant's orders; admins name the tenant.
 */
export async function cancelOrders(ctx: RequestContext, input: unknown): Promise<OrderRow[]> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const query = parseInput(cancelOrdersQuery, input, 'query')
  if (isAdmin(principal) && query.tenant_id === undefined) throw validationError([{ type: 'missing', loc: ['query', 'tenant_id'], msg: 'Field required' }])
  // Lower case, as streams and books key tenants: an upper-case id must not cancel nothing.
  const tenantId = (query.tenant_id ?? principal.tenantId).toLowerCase()
  assertTenantAccess(principal, tenantId)
  if (query.symbol !== undefined) await assertKnownSymbols(ctx, query.symbol)
  const side = query.side ?? null
  const symbols = await symbolsWithRestingOrdersOf(ctx.services.db, tenantId, query.symbol, side)
  const cancelled = await Promise.all(symbols.map((symbol) => ctx.services.matching.cancelMany(symbol, tenantId, side)))
  return cancelled.flat()
}

/**
 * Every symbol a cancel-many names must exist, as placing an order requires (the same
 * `value_error.symbol`), so a typo is refused rather than answered `cancelled: 0`. An inactive
 * symbol's orders can still be cancelled. Names the cache lacks are read afresh.
 */
async function assertKnownSymbols(ctx: RequestContext, names: readonly string[]): Promise<void> {
  const markets = await ctx.services.symbolsCache.markets()
  const issues: ValidationIssue[] = []
  for (const name of names) {
    if (markets.has(name) || (await findSymbolByName(ctx.services.db, name))) continue
    issues.push({ type: 'value_error.symbol', loc: ['query', 'symbol'], msg: `unknown symbol ${name}`, input: name })
  }
  if (issues.length > 0) throw validationError(issues)
}

/** A uid that is not a UUID names no order: 404, never a database type error. */
async function existingOrder(ctx: RequestContext, uid: string): Promise<OrderRow> {
  const row = UUID.test(uid) ? await findOrder(ctx.services.db, uid) : undefined
  if (!row) throw notFound(`Order ${echoed(uid)} not found`)
  return row
}

function assertOwnTenant(principal: Principal, tenantId: string): void {
  if (tenantId !== principal.tenantId) throw forbidden('Token belongs to different client')
}
