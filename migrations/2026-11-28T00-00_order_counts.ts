import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Each tenant's number of live (not soft-deleted) orders, kept by the database itself in the same
 * transaction as every statement that writes `orders`, so an unfiltered list's total is a read of a
 * few rows instead of a count of the tenant's whole history.
 *
 * - Inserts and deletes: statement-level triggers over transition tables, so a multi-row INSERT
 *   adjusts each tenant's counter once, and rows `ON CONFLICT DO NOTHING` skipped are not counted
 *   (they are not in the transition table).
 * - Sharded by backend (`pg_backend_pid() % 32`): a counter row stays locked until its transaction
 *   commits, so one row per tenant would make every order insert of that tenant wait for the
 *   previous one's commit. Each pooled connection has its own row; the total is their sum.
 * - An insert or delete statement upserts its tenants' rows in `tenant_id` order, so two
 *   statements sharing a shard lock them in the same order and cannot deadlock one another.
 *   (A single statement soft-deleting orders of several tenants locks their rows in row order.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table order_counts (
      tenant_id uuid not null,
      shard smallint not null,
      live bigint not null,
      primary key (tenant_id, shard)
    )`.execute(db)

  await sql`
    create function order_counts_after_insert() returns trigger language plpgsql as $$
    begin
      insert into order_counts as c (tenant_id, shard, live)
      select tenant_id, pg_backend_pid() % 32, count(*) from added where not is_deleted group by tenant_id order by tenant_id
      on conflict (tenant_id, shard) do update set live = c.live + excluded.live;
      return null;
    end $$`.execute(db)
  await sql`
    create function order_counts_after_delete() returns trigger language plpgsql as $$
    begin
      insert into order_counts as c (tenant_id, shard, live)
      select tenant_id, pg_backend_pid() % 32, -count(*) from removed where not is_deleted group by tenant_id order by tenant_id
      on conflict (tenant_id, shard) do update set live = c.live + excluded.live;
      return null;
    end $$`.execute(db)
  // Row by row, and only for rows whose liveness or tenant changed (soft deletes; the trigger's
  // column list and WHEN keep every other update, such as a cancel, free of it). A statement-level
  // trigger here would make each cancel pay for capturing its rows (~0.1 ms measured).
  await sql`
    create function order_counts_after_update() returns trigger language plpgsql as $$
    begin
      insert into order_counts as c (tenant_id, shard, live)
      select tenant_id, pg_backend_pid() % 32, sum(delta)
      from (values (old.tenant_id, case when old.is_deleted then 0 else -1 end), (new.tenant_id, case when new.is_deleted then 0 else 1 end)) changes (tenant_id, delta)
      group by tenant_id having sum(delta) <> 0 order by tenant_id
      on conflict (tenant_id, shard) do update set live = c.live + excluded.live;
      return null;
    end $$`.execute(db)
  await sql`
    create function order_counts_after_truncate() returns trigger language plpgsql as $$
    begin
      delete from order_counts;
      return null;
    end $$`.execute(db)

  // No order may be written between the backfill and the triggers taking over.
  await sql`lock table orders in share row exclusive mode`.execute(db)
  await sql`
    create trigger order_counts_insert after insert on orders referencing new table as added
    for each statement execute function order_counts_after_insert()`.execute(db)
  await sql`
    create trigger order_counts_delete after delete on orders referencing old table as removed
    for each statement execute function order_counts_after_delete()`.execute(db)
  await sql`
    create trigger order_counts_update after update of is_deleted, tenant_id on orders for each row
    when (old.is_deleted is distinct from new.is_deleted or old.tenant_id is distinct from new.tenant_id)
    execute function order_counts_after_update()`.execute(db)
  await sql`create trigger order_counts_truncate after truncate on orders for each statement execute function order_counts_after_truncate()`.execute(db)
  await sql`
    insert into order_counts (tenant_id, shard, live)
    select tenant_id, 0, count(*) from orders where not is_deleted group by tenant_id`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['order_counts_truncate', 'order_counts_update', 'order_counts_delete', 'order_counts_insert']) {
    await sql`drop trigger ${sql.id(trigger)} on orders`.execute(db)
  }
  for (const fn of ['order_counts_after_truncate', 'order_counts_after_update', 'order_counts_after_delete', 'order_counts_after_insert']) {
    await sql`drop function ${sql.id(fn)}()`.execute(db)
  }
  await sql`drop table order_counts`.execute(db)
}
