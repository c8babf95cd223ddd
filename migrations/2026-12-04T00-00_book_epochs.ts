import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Each order row carries the book epoch of the pass that last wrote it, so a process whose copy of
 * a symbol's book is at epoch E catches up by reading only the orders written after E, never the
 * whole book (docs/matching.md, "Many instances"). Rows written before have epoch 0, which every
 * copy already holds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column book_epoch bigint not null default 0`.execute(db)
  await sql`create index orders_book_epoch_idx on orders (symbol, book_epoch)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index orders_book_epoch_idx`.execute(db)
  await sql`alter table orders drop column book_epoch`.execute(db)
}
