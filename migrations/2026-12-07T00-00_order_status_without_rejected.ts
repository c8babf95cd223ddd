import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Order statuses are `open`, `partially_filled`, `filled` and `cancelled` (docs/api.md,
 * "Statuses"): the initial check still allowed `rejected`, which nothing has ever written. A row
 * holding it anyway (written by hand) becomes what an order ending unfilled is: `cancelled`, with
 * `cancel_reason` `unfilled`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update orders set status = 'cancelled', cancel_reason = 'unfilled' where status = 'rejected'`.execute(db)
  await sql`
    alter table orders
      drop constraint orders_status_check,
      add constraint orders_status_check check (status in ('open', 'partially_filled', 'filled', 'cancelled'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders
      drop constraint orders_status_check,
      add constraint orders_status_check check (status in ('open', 'partially_filled', 'filled', 'cancelled', 'rejected'))`.execute(db)
}
