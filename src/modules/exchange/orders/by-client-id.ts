import type { RequestContext } from '../../../core/context.ts'
import { echoed, notFound } from '../../../core/errors.ts'
import { findOrderByClientOrderId, type OrderRow } from './orders.repository.ts'
import { clientOrderId } from './orders.schemas.ts'
import { cancelOrder, ORDERS_READ, ORDERS_WRITE } from './orders.ts'

/**
 * An order by its tenant's `client_order_id` (docs/api.md, "Orders by client order id"): the
 * caller's own tenant's only (an id is unique per tenant, not across them, admins included). An id
 * that could never have been accepted (too long, spaces, not ASCII) names no order: 404 with the
 * body an unknown uid gets, checked by its length before the pattern.
 */
async function ownOrder(ctx: RequestContext, tenantId: string, id: string): Promise<OrderRow> {
  const valid = clientOrderId.safeParse(id).success
  const row = valid ? await findOrderByClientOrderId(ctx.services.db, tenantId, id) : undefined
  if (!row || row.is_deleted) throw notFound(`Order ${echoed(id)} not found`)
  return row
}

export async function getOrderByClientId(ctx: RequestContext, id: string): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_READ)
  return ownOrder(ctx, principal.tenantId, id)
}

/** Cancels as `DELETE /orders/<uid>` does the order the caller's tenant placed under this id. */
export async function cancelOrderByClientId(ctx: RequestContext, id: string): Promise<OrderRow> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const row = await ownOrder(ctx, principal.tenantId, id)
  return cancelOrder(ctx, row.uid)
}
