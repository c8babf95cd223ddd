import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Order lifecycle (docs/api.md, "Order lifecycle"): each order keeps its time in force (`gtc`,
 * `ioc`, `fok`; market orders were always immediate-or-cancel) and whether it is post-only, and a
 * post-only order that would have traded on arrival is cancelled with `cancel_reason` `post_only`.
 * Cancelling all of a tenant's orders finds the symbols it rests on through a small index of the
 * resting orders alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders
      add column time_in_force text not null default 'gtc' check (time_in_force in ('gtc', 'ioc', 'fok')),
      add column post_only boolean not null default false`.execute(db)
  await sql`update orders set time_in_force = 'ioc' where type = 'market'`.execute(db)
  await sql`
    alter table orders
      add constraint orders_market_is_ioc check (type = 'limit' or time_in_force = 'ioc'),
      add constraint orders_post_only_rests check (not post_only or (type = 'limit' and time_in_force = 'gtc')),
      drop constraint orders_cancel_reason_check,
      add constraint orders_cancel_reason_check check (cancel_reason in ('user', 'unfilled', 'self_trade', 'post_only'))`.execute(db)
  await sql`create index orders_tenant_resting_idx on orders (tenant_id, symbol) where status in ('open', 'partially_filled')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_tenant_resting_idx`.execute(db)
  await sql`update orders set cancel_reason = 'unfilled' where cancel_reason = 'post_only'`.execute(db)
  await sql`
    alter table orders
      drop constraint orders_cancel_reason_check,
      add constraint orders_cancel_reason_check check (cancel_reason in ('user', 'unfilled', 'self_trade')),
      drop constraint orders_post_only_rests,
      drop constraint orders_market_is_ioc,
      drop column post_only,
      drop column time_in_force`.execute(db)
}
