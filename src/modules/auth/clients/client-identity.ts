import { isAdmin } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { forbidden, notFound } from '../../../core/errors.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { ClientRow } from './clients.repository.ts'
import { getClient } from './clients.ts'

/** `GET /api/sso/v1/users/<client_id>` (docs/api.md, "Identity and tokens"): a client's record, secret digest excluded. */
export type ClientIdentity = { uid: string } & Pick<ClientRow, 'name' | 'tenant_id' | 'roles' | 'scopes' | 'is_active' | 'created_at' | 'updated_at'>

export function toClientIdentity(row: ClientRow): ClientIdentity {
  return {
    uid: row.id,
    name: row.name,
    tenant_id: row.tenant_id,
    roles: row.roles,
    scopes: row.scopes,
    is_active: row.is_active,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  }
}

/**
 * A client reads its own record; admins read any. Anyone else gets 403 whether or not the id
 * exists, so ids cannot be enumerated; only admins see 404.
 */
export async function getClientIdentity(ctx: RequestContext, clientId: string): Promise<ClientIdentity> {
  const principal = await ctx.auth.require()
  if (clientId.toLowerCase() !== principal.clientId && !isAdmin(principal)) throw forbidden('Token belongs to different client')
  const row = await getClient(ctx.services.db, clientId)
  if (!row) throw notFound('Client not found')
  return toClientIdentity(row)
}

/** The caller's own record (GraphQL `viewer`). */
export async function getViewer(ctx: RequestContext): Promise<ClientIdentity> {
  const principal = await ctx.auth.require()
  return getClientIdentity(ctx, principal.clientId)
}
