import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

/** Arms (or moves) a tenant's deadline; answers it as stored. */
export async function armDeadline(db: Db, tenantId: string, clientId: string, deadline: string): Promise<string> {
  const row = await db
    .insertInto('cancel_deadlines')
    .values({ tenant_id: tenantId, deadline, armed_by: clientId, claimed_until: null })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ deadline, armed_by: clientId, claimed_until: null, updated_at: sql<string>`timezone('utc', now())` }),
    )
    .returning('deadline')
    .executeTakeFirstOrThrow()
  return row.deadline
}

export async function disarmDeadline(db: Db, tenantId: string): Promise<void> {
  await db.deleteFrom('cancel_deadlines').where('tenant_id', '=', tenantId).execute()
}

/**
 * Claims deadlines at or before `now` that no sweep holds (or whose claim lapsed) until `until`,
 * earliest first, and answers them: a deadline is claimed by one instance at a time, so only
 * that one cancels for it. Rows another sweep is claiming right now are skipped, not waited for.
 */
export async function claimDueDeadlines(db: Db, now: string, until: string, limit: number): Promise<{ tenant_id: string; deadline: string }[]> {
  const { rows } = await sql<{ tenant_id: string; deadline: string }>`
    update cancel_deadlines d set claimed_until = ${until}::timestamp(6)
    from (
      select tenant_id from cancel_deadlines
      where deadline <= ${now}::timestamp(6) and (claimed_until is null or claimed_until <= ${now}::timestamp(6))
      order by deadline limit ${limit}
      for update skip locked
    ) due
    where d.tenant_id = due.tenant_id
    returning d.tenant_id, d.deadline`.execute(db)
  return rows
}

/** Removes a deadline that fired, unless it was moved meanwhile (a re-arm after it passed starts a new one). */
export async function clearFiredDeadline(db: Db, tenantId: string, deadline: string): Promise<void> {
  await db.deleteFrom('cancel_deadlines').where('tenant_id', '=', tenantId).where('deadline', '=', deadline).execute()
}

/** Gives up a claim whose cancels failed, unless the deadline was moved meanwhile. */
export async function releaseClaim(db: Db, tenantId: string, deadline: string): Promise<void> {
  await db.updateTable('cancel_deadlines').set({ claimed_until: null }).where('tenant_id', '=', tenantId).where('deadline', '=', deadline).execute()
}
