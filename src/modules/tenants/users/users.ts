import { randomUUID } from 'node:crypto'

import { assertTenantAccess, isAdmin } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { conflict, notFound } from '../../../core/errors.ts'
import { type CommonRecord, commonRecord, type ListEnvelope } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import { findUserByUid, insertUser, listUserRows, USERNAME_UNIQUE_CONSTRAINTS, type UserRow } from './users.repository.ts'
import { createUserInput, listUsersQuery, uidPattern, userHeads } from './users.schemas.ts'

/**
 * Tenant users: the people who act for a bank (docs/api.md, "Tenant users"). A caller sees and creates users of its
 * own tenant only; the `admin` role reads across tenants.
 */
export interface UserRecord extends CommonRecord {
  tenant_id: string
  username: string
  email: string
  is_active: boolean
}

export function toUserRecord(row: UserRow): UserRecord {
  return { ...commonRecord(row), tenant_id: row.tenant_id, username: row.username, email: row.email, is_active: row.is_active }
}

/** `readBody` is called once the caller is authorised: a bad token or missing scope is reported before anything about the body. */
export async function createUser(ctx: RequestContext, readBody: () => unknown): Promise<UserRecord> {
  const principal = await ctx.auth.require('users:write')
  const data = parseInput(createUserInput, await readBody(), 'body')
  try {
    const row = await insertUser(ctx.services.db, {
      uid: randomUUID(),
      user_id: principal.clientId,
      tenant_id: principal.tenantId,
      username: data.username,
      email: data.email,
      meta_data: null,
    })
    return toUserRecord(row)
  } catch (error) {
    // The unique index decides, so concurrent creations of one username yield exactly one user.
    if (isUniqueViolation(error, USERNAME_UNIQUE_CONSTRAINTS)) {
      throw conflict(`Username "${data.username}" is already in use in this tenant`)
    }
    throw error
  }
}

export async function getUser(ctx: RequestContext, uid: string): Promise<UserRecord> {
  const principal = await ctx.auth.require('users:read')
  const row = uidPattern.safeParse(uid).success ? await findUserByUid(ctx.services.db, uid) : undefined
  if (!row) throw notFound('User not found')
  assertTenantAccess(principal, row.tenant_id)
  return toUserRecord(row)
}

/** Lists the caller's tenant; admins list every tenant unless they filter by `tenant_id`. */
export async function listUsers(ctx: RequestContext, input: unknown): Promise<ListEnvelope<UserRecord>> {
  const principal = await ctx.auth.require('users:read')
  const query = parseInput(listUsersQuery, input, 'query')
  if (query.tenant_id !== undefined) assertTenantAccess(principal, query.tenant_id)
  const tenantId = query.tenant_id ?? (isAdmin(principal) ? undefined : principal.tenantId)
  const { rows, total } = await listUserRows(ctx.services.db, { tenant_id: tenantId, username: query.username, email: query.email }, query)
  return { heads: userHeads, items: rows.map(toUserRecord), total, offset: query.offset, limit: query.limit }
}

function isUniqueViolation(error: unknown, constraints: string[]): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null
  return e?.code === '23505' && typeof e.constraint === 'string' && constraints.includes(e.constraint)
}
