import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

const now = sql`timezone('utc', now())`

/**
 * Matching: orders gain what a match writes (`average_price`, `cancel_reason`, the exact notional
 * of their fills, and `seq`, their place in their symbol's acceptance order); trades and fills are
 * stored; and each symbol has a `symbol_books` row, locked by whichever process matches it (one at
 * a time across processes) and stamped with an epoch every write of its book bumps, so a process
 * knows whether the book it holds in memory is still the database's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table orders
      add column average_price numeric check (average_price > 0),
      add column cancel_reason text check (cancel_reason in ('user', 'unfilled', 'self_trade')),
      add column filled_notional numeric not null default 0 check (filled_notional >= 0),
      add column seq bigint`.execute(db)
  // Orders stored before matching existed: market orders were answered cancelled unfilled, and any
  // other cancelled order was cancelled by its owner. Their acceptance order is their creation order.
  await sql`
    update orders set cancel_reason = case when type = 'market' then 'unfilled' else 'user' end
    where status = 'cancelled'`.execute(db)
  await sql`
    update orders o set seq = n.seq
    from (select uid, row_number() over (partition by symbol order by created_at, uid) as seq from orders) n
    where o.uid = n.uid`.execute(db)
  // Orders are written by the matcher, which numbers them; a row inserted by hand counts as oldest.
  await sql`alter table orders alter column seq set not null, alter column seq set default 0`.execute(db)
  await sql`alter table orders add constraint orders_filled_within_quantity check (filled_quantity <= quantity)`.execute(db)
  await sql`
    alter table orders add constraint orders_cancel_reason_when_cancelled
      check ((status = 'cancelled') = (cancel_reason is not null))`.execute(db)
  // The book of a symbol, in acceptance order: what a process reads to rebuild it.
  await sql`create index orders_book_idx on orders (symbol, seq) where status in ('open', 'partially_filled')`.execute(db)
  // Price levels of a book side, for the book snapshot.
  await sql`create index orders_levels_idx on orders (symbol, side, price) where status in ('open', 'partially_filled')`.execute(db)

  await sql`
    create table symbol_books (
      symbol text primary key references symbols (symbol),
      epoch bigint not null default 0,
      last_order_seq bigint not null default 0,
      market_sequence bigint not null default 0,
      trade_count bigint not null default 0,
      last_price numeric,
      last_trade_at timestamp(6)
    )`.execute(db)
  await sql`
    insert into symbol_books (symbol, last_order_seq)
    select s.symbol, coalesce(max(o.seq), 0) from symbols s left join orders o on o.symbol = s.symbol group by s.symbol`.execute(db)

  await db.schema
    .createTable('trades')
    .addColumn('uid', 'uuid', (c) => c.primaryKey())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('symbol', 'text', (c) => c.notNull().references('symbols.symbol'))
    .addColumn('price', 'numeric', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('quantity', 'numeric', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('taker_side', 'text', (c) => c.notNull().check(sql`taker_side in ('buy', 'sell')`))
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('maker_order_uid', 'uuid', (c) => c.notNull().references('orders.uid'))
    .addColumn('taker_order_uid', 'uuid', (c) => c.notNull().references('orders.uid'))
    .execute()
  await sql`create unique index trades_symbol_sequence_idx on trades (symbol, sequence)`.execute(db)

  await db.schema
    .createTable('fills')
    .addColumn('uid', 'uuid', (c) => c.primaryKey())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('order_uid', 'uuid', (c) => c.notNull().references('orders.uid'))
    .addColumn('trade_uid', 'uuid', (c) => c.notNull().references('trades.uid'))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('maker', 'taker')`))
    .addColumn('price', 'numeric', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('quantity', 'numeric', (c) => c.notNull().check(sql`quantity > 0`))
    .execute()
  await sql`create index fills_tenant_created_idx on fills (tenant_id, created_at, uid)`.execute(db)
  await sql`create index fills_created_idx on fills (created_at, uid)`.execute(db)
  await sql`create index fills_order_idx on fills (order_uid)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fills').execute()
  await db.schema.dropTable('trades').execute()
  await db.schema.dropTable('symbol_books').execute()
  await sql`drop index orders_levels_idx`.execute(db)
  await sql`drop index orders_book_idx`.execute(db)
  await sql`
    alter table orders
      drop constraint orders_cancel_reason_when_cancelled,
      drop constraint orders_filled_within_quantity,
      drop column seq,
      drop column filled_notional,
      drop column cancel_reason,
      drop column average_price`.execute(db)
}
