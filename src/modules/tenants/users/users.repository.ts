import { type Insertable, type Selectable, sql } from 'kysely'

import { type ListQuery, orderAndPage, whereCommon } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { UserTable } from '../../../db/schema.ts'

export type UserRow = Selectable<UserTable>

/** Unique indexes whose violation means "username already taken in this tenant". */
export const USERNAME_UNIQUE_CONSTRAINTS = ['users_tenant_username_key', 'users_tenant_lower_username_key']

export async function insertUser(db: Db, user: Insertable<UserTable>): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow()
}

export async function findUserByUid(db: Db, uid: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('uid', '=', uid).where('is_deleted', '=', false).executeTakeFirst()
}

export interface UserFilter {
  /** Absent: every tenant (admins only). */
  tenant_id?: string | undefined
  /** Case-insensitive equality. */
  username?: string | undefined
  /** Case-insensitive equality. */
  email?: string | undefined
}

/** One page of users matching `filter` and the common list query, and how many match in all. */
export async function listUserRows(db: Db, filter: UserFilter, query: ListQuery): Promise<{ rows: UserRow[]; total: number }> {
  let base = whereCommon(db.selectFrom('users'), 'users', query)
  if (filter.tenant_id !== undefined) base = base.where('tenant_id', '=', filter.tenant_id)
  if (filter.username !== undefined) base = base.where(sql`lower(username)`, '=', sql`lower(${filter.username})`)
  if (filter.email !== undefined) base = base.where(sql`lower(email)`, '=', sql`lower(${filter.email})`)
  const [rows, count] = await Promise.all([
    orderAndPage(base.selectAll(), 'users', query).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: count.n }
}
