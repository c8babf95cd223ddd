import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Event streams: every change of a tenant's orders in that tenant's stream, every trade and book
 * level change of a symbol in the symbol's stream, each numbered without gaps within its stream and
 * written by the matching pass that made the change, in its statement. `payload` is the event's
 * JSON body exactly as delivered (text, so its key order and bytes are kept).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tenant_events (
      tenant_id uuid not null,
      sequence bigint not null,
      type text not null check (type in ('order.created', 'order.updated', 'fill')),
      created_at timestamp(6) not null,
      payload text not null,
      primary key (tenant_id, sequence)
    )`.execute(db)
  await sql`create index tenant_events_created_idx on tenant_events (created_at)`.execute(db)
  await sql`
    create table tenant_event_counters (
      tenant_id uuid primary key,
      last_sequence bigint not null
    )`.execute(db)
  await sql`
    create table market_events (
      symbol text not null,
      sequence bigint not null,
      type text not null check (type in ('trade', 'book')),
      created_at timestamp(6) not null,
      payload text not null,
      primary key (symbol, sequence)
    )`.execute(db)
  await sql`create index market_events_created_idx on market_events (created_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table market_events`.execute(db)
  await sql`drop table tenant_event_counters`.execute(db)
  await sql`drop table tenant_events`.execute(db)
}
