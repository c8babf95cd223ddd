import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * The order list filters on tenant and `is_deleted` and sorts by `created_at, uid`: this index
 * hands a page over in order (no sort of the tenant's whole history) and counts the total by an
 * index-only scan. It supersedes `orders_tenant_created_idx`, which only each insert still paid for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_tenant_live_created_uid_idx on orders (tenant_id, is_deleted, created_at, uid)`.execute(db)
  await sql`drop index orders_tenant_created_idx`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index orders_tenant_created_idx on orders (tenant_id, created_at)`.execute(db)
  await sql`drop index orders_tenant_live_created_uid_idx`.execute(db)
}
