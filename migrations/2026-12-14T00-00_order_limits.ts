import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Size limits, cancel-on-disconnect (DESIGN §22; docs/api.md, "Order limits"):
 * - each symbol may cap an order's quantity (`max_order_quantity`) and ask a minimum notional
 *   (`min_notional`, price × quantity); null means no limit;
 * - an order may be cancelled with `cancel_reason` `deadline` by a tenant's dead man's switch; the
 *   check is rebuilt from the one in place with `deadline` added, so a reason another migration
 *   added is kept whichever of them runs first;
 * - `cancel_deadlines` holds each tenant's armed deadline, read by the sweep every instance runs.
 *   Orders are looked up by `client_order_id` through the unique (tenant_id, client_order_id) key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table symbols
      add column max_order_quantity numeric check (max_order_quantity > 0),
      add column min_notional numeric check (min_notional > 0)`.execute(db)
  await replaceCancelReasons(db, (reasons) => [...new Set([...reasons, 'deadline'])])
  await sql`
    create table cancel_deadlines (
      tenant_id uuid primary key references tenants (id),
      deadline timestamp(6) not null,
      armed_by text not null,
      updated_at timestamp(6) not null default timezone('utc', now())
    )`.execute(db)
  await sql`create index cancel_deadlines_deadline_idx on cancel_deadlines (deadline)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table cancel_deadlines`.execute(db)
  await sql`update orders set cancel_reason = 'user' where cancel_reason = 'deadline'`.execute(db)
  await replaceCancelReasons(db, (reasons) => reasons.filter((reason) => reason !== 'deadline'))
  await sql`alter table symbols drop column min_notional, drop column max_order_quantity`.execute(db)
}

/** Rewrites `orders_cancel_reason_check` with the reasons `change` makes of the ones it allows now. */
async function replaceCancelReasons(db: Kysely<any>, change: (reasons: string[]) => string[]): Promise<void> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(oid) as definition from pg_constraint
    where conname = 'orders_cancel_reason_check' and conrelid = 'orders'::regclass`.execute(db)
  const reasons = [...(rows[0]?.definition ?? '').matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!)
  const allowed = change(reasons)
    .map((reason) => `'${reason.replace(/[^a-z_]/g, '')}'`)
    .join(', ')
  await sql`
    alter table orders
      drop constraint orders_cancel_reason_check,
      add constraint orders_cancel_reason_check check (cancel_reason in (${sql.raw(allowed)}))`.execute(db)
}
