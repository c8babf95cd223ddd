import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Usernames are unique per tenant regardless of case ("Alice" and "alice" would be two people a
 * bank's staff cannot tell apart), and the `username`/`email` list filters compare
 * case-insensitively, so both lookups get an index on `lower(...)` within the tenant.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index users_tenant_lower_username_key on users (tenant_id, lower(username))`.execute(db)
  await sql`create index users_tenant_lower_email_idx on users (tenant_id, lower(email))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index users_tenant_lower_email_idx`.execute(db)
  await sql`drop index users_tenant_lower_username_key`.execute(db)
}
