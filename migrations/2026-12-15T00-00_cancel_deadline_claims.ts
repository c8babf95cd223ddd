import { type Kysely, sql } from 'kysely'

/**
 * A fired cancel-after deadline is claimed by one sweeping instance for a while (`claimed_until`)
 * before it cancels: two instances that both saw it due no longer both cancel, so a late one cannot
 * cancel orders placed after the first had cleared the deadline. A claimer that dies lets the
 * claim lapse, and another instance takes the deadline over (docs/api.md, "Cancel on disconnect").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table cancel_deadlines add column claimed_until timestamp(6)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table cancel_deadlines drop column claimed_until`.execute(db)
}
