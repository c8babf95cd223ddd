import { assertTenantAccess, isAdmin } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { type Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import { ORDERS_READ } from '../orders/orders.ts'
import { type FillRow, listFillRows } from './fills.repository.ts'
import { fillListQuery } from './fills.schemas.ts'

/**
 * The caller's tenant's fills: each trade seen from one of its orders (docs/api.md, "Matching").
 * Admins see every tenant's, and may narrow to one with `tenant_id`.
 */
export async function listFills(ctx: RequestContext, input: unknown): Promise<Page<FillRow>> {
  const principal = await ctx.auth.require(ORDERS_READ)
  const query = parseInput(fillListQuery, input, 'query')
  if (query.tenant_id !== undefined) assertTenantAccess(principal, query.tenant_id)
  const tenantId = query.tenant_id ?? (isAdmin(principal) ? undefined : principal.tenantId)
  const page = await listFillRows(ctx.services.db, query, tenantId)
  return { ...page, offset: query.offset, limit: query.limit }
}
