import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

/** Arms (or moves) a tenant's deadline; answers it as stored. */
export async function armDeadline(db: Db, tenantId: string, clientId: string, deadline: string): Promise<string> {
  const row = await db
    .insertInto('cancel_deadlines')
    .values({ tenant_id: tenantId, deadline, armed_by: clientId })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ deadline, armed_by: clientId, updated_at: sql<string>`timezone('utc', now())` }))
    .returning('deadline')
    .executeTakeFirstOrThrow()
  return row.deadline
}

export async function disarmDeadline(db: Db, tenantId: string): Promise<void> {
  await db.deleteFrom('cancel_deadlines').where('tenant_id', '=', tenantId).execute()
}

/** Deadlines at or before `now`, earliest first (the index on `deadline`). */
export async function dueDeadlines(db: Db, now: string, limit: number): Promise<{ tenant_id: string; deadline: string }[]> {
  return db.selectFrom('cancel_deadlines').select(['tenant_id', 'deadline']).where('deadline', '<=', now).orderBy('deadline').limit(limit).execute()
}

/** Removes a deadline that fired, unless it was moved meanwhile (a re-arm after it passed starts a new one). */
export async function clearFiredDeadline(db: Db, tenantId: string, deadline: string): Promise<void> {
  await db.deleteFrom('cancel_deadlines').where('tenant_id', '=', tenantId).where('deadline', '=', deadline).execute()
}
