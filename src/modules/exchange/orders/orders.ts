import { randomUUID } from 'node:crypto'

import { assertTenantAccess, isAdmin, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { decimalFromStore, decimalsEqual } from '../../../core/decimal.ts'
import { conflict, echoed, forbidden, notFound, validationError } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import { findSymbolByName } from '../symbols/symbols.repository.ts'
import { marketRuleIssues, type MarketRules } from './order-rules.ts'
import { cancelOpenOrder, findOrder, findOrderByClientOrderId, insertOrder, listOrderRows, type OrderRow, type RuledOrder } from './orders.repository.ts'
import { type CreateOrderFields, inFieldOrder, orderListQuery, type ParsedOrderFields, parseOrderFields } from './orders.schemas.ts'

export const ORDERS_READ = 'orders:read'
export const ORDERS_WRITE = 'orders:write'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface CreatedOrder {
  order: OrderRow
  /** False when the tenant's `client_order_id` already named this order (a retried submission). */
  created: boolean
}

/**
 * Places an order. `readBody` is called after the caller is authorised, so a bad token or a
 * missing scope is reported before anything about the body.
 *
 * A valid order is checked against the cached market rules and inserted in a shared statement
 * that re-checks those rules in SQL; anything else (invalid input, rules changed since cached, a
 * reused `client_order_id`) takes the one-order path, which reads the symbol afresh.
 */
export async function createOrder(ctx: RequestContext, readBody: () => unknown): Promise<CreatedOrder> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const parsed = parseOrderFields(await readBody())
  const { fields } = parsed
  const market = fields.symbol !== undefined ? (await ctx.services.symbolsCache.markets()).get(fields.symbol) : undefined
  if (!market || parsed.issues.length > 0 || marketRuleIssues(parsed, market).length > 0) return createOrderAlone(ctx, principal, parsed)

  const order = newOrder(principal, fields as CreateOrderFields, market)
  const outcome = await ctx.services.orderWrites.insert({ order, rules: market })
  if (outcome.kind === 'inserted') return { order: outcome.row, created: true }
  if (outcome.kind === 'duplicate') return replay(outcome.existing, fields)
  const existing = order.client_order_id ? await findOrderByClientOrderId(ctx.services.db, principal.tenantId, order.client_order_id) : undefined
  if (existing) return replay(existing, fields)
  return createOrderAlone(ctx, principal, parsed)
}

/** One order on its own: the symbol read afresh, every rule checked, its own insert. */
async function createOrderAlone(ctx: RequestContext, principal: Principal, parsed: ParsedOrderFields): Promise<CreatedOrder> {
  const { fields } = parsed
  const market = fields.symbol !== undefined ? await findSymbolByName(ctx.services.db, fields.symbol) : undefined
  const issues = [...parsed.issues, ...marketRuleIssues(parsed, market)]
  const clientOrderId = fields.client_order_id ?? null

  if (issues.length > 0) {
    // A retry must get the original answer even if the market's rules changed since.
    const existing = clientOrderId ? await findOrderByClientOrderId(ctx.services.db, principal.tenantId, clientOrderId) : undefined
    if (existing) return replay(existing, fields)
    throw validationError(inFieldOrder(issues))
  }

  const row = await insertOrder(ctx.services.db, { ...newOrder(principal, fields as CreateOrderFields, market!), meta_data: null, filled_quantity: '0' })
  if (row) return { order: row, created: true }

  const existing = await findOrderByClientOrderId(ctx.services.db, principal.tenantId, clientOrderId!)
  if (!existing) throw new Error('order insert conflicted, yet no order holds its client_order_id')
  return replay(existing, fields)
}

function newOrder(principal: Principal, order: CreateOrderFields, market: MarketRules): RuledOrder['order'] {
  return {
    uid: randomUUID(),
    user_id: principal.clientId,
    tenant_id: principal.tenantId,
    client_order_id: order.client_order_id ?? null,
    symbol: market.symbol,
    side: order.side,
    type: order.type,
    quantity: order.quantity.text,
    price: order.price?.text ?? null,
    // No matching engine yet: limit orders rest, market orders are immediate-or-cancel.
    status: order.type === 'limit' ? 'open' : 'cancelled',
  }
}

/** The same request again answers the existing order; another request under its id is a conflict. */
function replay(existing: OrderRow, fields: Partial<CreateOrderFields>): CreatedOrder {
  if (sameRequest(existing, fields)) return { order: existing, created: false }
  throw conflict(`client_order_id ${existing.client_order_id} was already used for a different order (${existing.uid})`)
}

/** Decimals compare by value: `"1.50"` resubmitted as `"1.5"` is the same order. */
function sameRequest(existing: OrderRow, fields: Partial<CreateOrderFields>): boolean {
  const price = fields.price ?? null
  return (
    fields.symbol === existing.symbol &&
    fields.side === existing.side &&
    fields.type === existing.type &&
    fields.quantity !== undefined &&
    decimalsEqual(fields.quantity.value, decimalFromStore(existing.quantity)) &&
    (price === null || existing.price === null ? price === existing.price : decimalsEqual(price.value, decimalFromStore(existing.price)))
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
  const row = await existingOrder(ctx, uid)
  assertTenantAccess(principal, row.tenant_id)
  return row
}

/**
 * Cancels an open or partially filled order of the caller's tenant. Admins read across tenants
 * but do not trade for them, so another tenant's order is 403 for everyone.
 */
export async function cancelOrder(ctx: RequestContext, uid: string): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  if (UUID.test(uid)) {
    const cancelled = await cancelOpenOrder(ctx.services.db, uid, principal.tenantId)
    if (cancelled) return cancelled
  }
  const row = await existingOrder(ctx, uid)
  assertOwnTenant(principal, row.tenant_id)
  throw conflict(`Order ${echoed(uid)} is ${row.status}; only open or partially filled orders can be cancelled`)
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
