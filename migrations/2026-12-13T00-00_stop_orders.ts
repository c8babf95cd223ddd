import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Stop orders and good-till-date (docs/matching.md, "Stop orders and good till date"): `type`
 * `stop_limit` and `stop_market` with their `stop_price`, status `pending` until a trade triggers
 * them; `time_in_force` `gtd` with its `expire_at` (UTC), cancelled `expired` once it passes. The
 * pending stops of a symbol are read at warm-up through a partial index; the expiry sweep finds
 * the symbols with a due gtd order through another; cancel-many finds a tenant's working orders
 * (resting or pending) through a third, which replaces the one of resting orders alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders
      add column stop_price numeric check (stop_price > 0),
      add column expire_at timestamp(6),
      drop constraint orders_type_check,
      add constraint orders_type_check check (type in ('limit', 'market', 'stop_limit', 'stop_market')),
      drop constraint orders_status_check,
      add constraint orders_status_check check (status in ('open', 'partially_filled', 'filled', 'cancelled', 'pending')),
      drop constraint orders_time_in_force_check,
      add constraint orders_time_in_force_check check (time_in_force in ('gtc', 'ioc', 'fok', 'gtd')),
      drop constraint orders_cancel_reason_check,
      add constraint orders_cancel_reason_check check (cancel_reason in ('user', 'unfilled', 'self_trade', 'post_only', 'expired')),
      drop constraint orders_limit_has_price,
      add constraint orders_limit_has_price check ((type in ('limit', 'stop_limit')) = (price is not null)),
      drop constraint orders_market_is_ioc,
      add constraint orders_market_is_ioc check (type in ('limit', 'stop_limit') or time_in_force = 'ioc'),
      drop constraint orders_post_only_rests,
      add constraint orders_post_only_rests check (not post_only or (type = 'limit' and time_in_force in ('gtc', 'gtd'))),
      add constraint orders_stop_has_stop_price check ((type in ('stop_limit', 'stop_market')) = (stop_price is not null)),
      add constraint orders_gtd_has_expire_at check ((time_in_force = 'gtd') = (expire_at is not null)),
      add constraint orders_pending_is_stop check (status <> 'pending' or type in ('stop_limit', 'stop_market'))`.execute(db)
  await sql`create index orders_pending_idx on orders (symbol, seq) where status = 'pending'`.execute(db)
  await sql`create index orders_gtd_due_idx on orders (expire_at) where time_in_force = 'gtd' and status in ('open', 'partially_filled', 'pending')`.execute(
    db,
  )
  await sql`create index orders_tenant_working_idx on orders (tenant_id, symbol) where status in ('open', 'partially_filled', 'pending')`.execute(db)
  await sql`drop index orders_tenant_resting_idx`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index orders_tenant_resting_idx on orders (tenant_id, symbol) where status in ('open', 'partially_filled')`.execute(db)
  await sql`drop index orders_tenant_working_idx`.execute(db)
  await sql`drop index orders_gtd_due_idx`.execute(db)
  await sql`drop index orders_pending_idx`.execute(db)
  // What cannot be said without stops or expiry ends: pending stops and gtd orders are cancelled
  // and their holds given back to their accounts.
  await sql`
    with ended as (
      update orders o set status = 'cancelled', cancel_reason = 'user', hold = 0
      from orders before
      where before.uid = o.uid and (o.status = 'pending' or (o.time_in_force = 'gtd' and o.status in ('open', 'partially_filled')))
      returning o.tenant_id, o.hold_currency, before.hold
    ), released as (
      select tenant_id, hold_currency, sum(hold) as amount from ended where hold_currency is not null group by tenant_id, hold_currency
    )
    update accounts a set hold = a.hold - r.amount from released r where a.tenant_id = r.tenant_id and a.currency = r.hold_currency`.execute(db)
  await sql`update orders set cancel_reason = 'user' where cancel_reason = 'expired'`.execute(db)
  await sql`update orders set type = case type when 'stop_limit' then 'limit' when 'stop_market' then 'market' else type end`.execute(db)
  await sql`update orders set time_in_force = 'gtc' where time_in_force = 'gtd'`.execute(db)
  await sql`
    alter table orders
      drop constraint orders_pending_is_stop,
      drop constraint orders_gtd_has_expire_at,
      drop constraint orders_stop_has_stop_price,
      drop constraint orders_post_only_rests,
      add constraint orders_post_only_rests check (not post_only or (type = 'limit' and time_in_force = 'gtc')),
      drop constraint orders_market_is_ioc,
      add constraint orders_market_is_ioc check (type = 'limit' or time_in_force = 'ioc'),
      drop constraint orders_limit_has_price,
      add constraint orders_limit_has_price check ((type = 'limit') = (price is not null)),
      drop constraint orders_cancel_reason_check,
      add constraint orders_cancel_reason_check check (cancel_reason in ('user', 'unfilled', 'self_trade', 'post_only')),
      drop constraint orders_time_in_force_check,
      add constraint orders_time_in_force_check check (time_in_force in ('gtc', 'ioc', 'fok')),
      drop constraint orders_status_check,
      add constraint orders_status_check check (status in ('open', 'partially_filled', 'filled', 'cancelled')),
      drop constraint orders_type_check,
      add constraint orders_type_check check (type in ('limit', 'market')),
      drop column expire_at,
      drop column stop_price`.execute(db)
}
