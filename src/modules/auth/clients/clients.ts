import { randomUUID } from 'node:crypto'

import { z } from 'zod'

import { echoed, notFound } from '../../../core/errors.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { revokeClientSessions } from '../sessions/sessions.repository.ts'
import { digestSecret, generateClientSecret } from './client-secrets.ts'
import { type ClientRow, findClientById, insertClient, listClientRows, updateClient } from './clients.repository.ts'
import { findTenant, insertTenant } from './tenants.repository.ts'

export const ROLES = ['client', 'admin'] as const
export const DEFAULT_SCOPES = ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write', 'accounts:read', 'webhooks:read', 'webhooks:write']
/** What an admin gets by default besides: moving money in and out of accounts (docs/accounts.md), reading the audit trail (docs/operations.md). */
export const DEFAULT_ADMIN_SCOPES = [...DEFAULT_SCOPES, 'accounts:write', 'audit:read']
const scopePattern = /^([a-z][a-z0-9_-]*|\*):([a-z][a-z0-9_-]*|\*)$/

export const createClientInput = z.object({
  name: z.string().trim().min(1).max(200),
  tenant_id: z.uuid().optional(),
  roles: z.array(z.enum(ROLES)).min(1).default(['client']),
  scopes: z.array(z.string().max(100, { abort: true }).regex(scopePattern, 'scopes are <resource>:<action>, * allowed for either part')).optional(),
  /** `required`: login, refresh and calls need DPoP proofs (docs/dpop.md). */
  dpop: z.enum(['required', 'off']).optional(),
})
export type CreateClientInput = z.input<typeof createClientInput>

export interface ClientRecord {
  client_id: string
  name: string
  tenant_id: string
  roles: string[]
  scopes: string[]
  is_active: boolean
  dpop: 'required' | 'off'
  created_at: string
  updated_at: string
}

export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    client_id: row.id,
    name: row.name,
    tenant_id: row.tenant_id,
    roles: row.roles,
    scopes: row.scopes,
    is_active: row.is_active,
    dpop: row.dpop_required ? 'required' : 'off',
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  }
}

/** Creates a client (and its tenant unless one is given); the secret is returned once, never stored. */
export async function createClient(db: Db, input: CreateClientInput) {
  const data = parseInput(createClientInput, input, 'body')
  const secret = generateClientSecret()
  const row = await db.transaction().execute(async (trx) => {
    let tenantId = data.tenant_id
    if (tenantId) {
      if (!(await findTenant(trx, tenantId))) throw notFound(`Tenant ${tenantId} does not exist`)
    } else {
      tenantId = (await insertTenant(trx, { id: randomUUID(), name: data.name })).id
    }
    return insertClient(trx, {
      id: randomUUID(),
      tenant_id: tenantId,
      name: data.name,
      secret_digest: digestSecret(secret),
      roles: [...new Set(data.roles)],
      scopes: [...new Set(data.scopes ?? (data.roles.includes('admin') ? DEFAULT_ADMIN_SCOPES : DEFAULT_SCOPES))],
      dpop_required: data.dpop === 'required',
    })
  })
  const created = { client_id: row.id, client_secret: secret, tenant_id: row.tenant_id, roles: row.roles, scopes: row.scopes }
  return row.dpop_required ? { ...created, dpop: 'required' as const } : created
}

export async function listClients(db: Db): Promise<ClientRecord[]> {
  return (await listClientRows(db)).map(toClientRecord)
}

export async function deactivateClient(db: Db, clientId: string): Promise<ClientRecord> {
  const row = z.uuid().safeParse(clientId).success ? await updateClient(db, clientId, { is_active: false }) : undefined
  if (!row) throw notFound(`Client ${clientId} does not exist`)
  return toClientRecord(row)
}

/**
 * A new secret, and every session opened with the old one revoked in the same transaction: a leaked
 * secret's tokens stop working too (every process refuses them within the revocation reload).
 */
export async function rotateClientSecret(db: Db, clientId: string) {
  const secret = generateClientSecret()
  if (!z.uuid().safeParse(clientId).success) throw notFound(`Client ${echoed(clientId)} does not exist`)
  return db.transaction().execute(async (trx) => {
    const row = await updateClient(trx, clientId, { secret_digest: digestSecret(secret) })
    if (!row) throw notFound(`Client ${clientId} does not exist`)
    const revoked = await revokeClientSessions(trx, row.id, 'secret_rotated')
    return { client_id: row.id, client_secret: secret, revoked_sessions: revoked.length }
  })
}

/** Revokes every session of a client (its tokens stop working on every process within seconds); the secret stays. */
export async function revokeSessionsOfClient(db: Db, clientId: string) {
  const row = z.uuid().safeParse(clientId).success ? await findClientById(db, clientId) : undefined
  if (!row) throw notFound(`Client ${echoed(clientId)} does not exist`)
  const revoked = await revokeClientSessions(db, row.id, 'revoked_by_operator')
  return { client_id: row.id, revoked_sessions: revoked.length }
}

export async function getClient(db: Db, clientId: string): Promise<ClientRow | undefined> {
  return z.uuid().safeParse(clientId).success ? findClientById(db, clientId) : undefined
}
