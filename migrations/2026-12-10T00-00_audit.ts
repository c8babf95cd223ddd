import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/** The hash before the first record of the chain (docs/operations.md, "Audit trail"). */
const GENESIS_HASH = '0'.repeat(64)
/** The default scopes of an admin before the audit trail: admins still holding exactly these gain `audit:read`. */
const OLD_ADMIN_SCOPES = ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write', 'accounts:read', 'accounts:write']

/**
 * The audit trail (docs/operations.md, "Audit trail"): append-only records, each hashed with the
 * previous record's hash; the chain's head is one row, locked by every append so two processes
 * never fork the chain. A trigger refuses any update, delete or truncate of a record. And the
 * address allow-lists of clients (docs/operations.md, "Address allow-lists"), and the scope `audit:read` for
 * admins that still hold the old default admin scopes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_records (
      seq bigint primary key,
      uid uuid not null unique,
      created_at timestamp(6) not null,
      action text not null,
      actor jsonb not null,
      actor_client_id uuid,
      target_type text,
      target_id text,
      ip text,
      request_id text,
      outcome text not null check (outcome in ('ok', 'denied', 'failed')),
      details jsonb not null,
      prev_hash text not null,
      hash text not null
    )`.execute(db)
  await sql`create index audit_records_created_at_idx on audit_records (created_at, uid)`.execute(db)
  await sql`create index audit_records_action_idx on audit_records (action, created_at)`.execute(db)
  await sql`create index audit_records_actor_idx on audit_records (actor_client_id, created_at)`.execute(db)
  await sql`create index audit_records_target_idx on audit_records (target_id, created_at)`.execute(db)
  await sql`
    create table audit_chain (
      id boolean primary key default true check (id),
      seq bigint not null,
      hash text not null
    )`.execute(db)
  await sql`insert into audit_chain (id, seq, hash) values (true, 0, ${GENESIS_HASH})`.execute(db)
  await sql`
    create function audit_records_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit records are append-only';
    end
    $$`.execute(db)
  await sql`
    create trigger audit_records_append_only before update or delete or truncate on audit_records
    for each statement execute function audit_records_append_only()`.execute(db)

  await sql`
    create table client_allowed_addresses (
      client_id uuid primary key references clients (id),
      cidrs text[] not null,
      updated_at timestamp(6) not null default timezone('utc', now())
    )`.execute(db)

  await sql`
    update clients set scopes = scopes || array['audit:read']
    where 'admin' = any (roles) and scopes @> ${OLD_ADMIN_SCOPES}::text[] and ${OLD_ADMIN_SCOPES}::text[] @> scopes`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update clients set scopes = array_remove(scopes, 'audit:read')`.execute(db)
  await sql`drop table client_allowed_addresses`.execute(db)
  await sql`drop table audit_chain`.execute(db)
  await sql`drop table audit_records`.execute(db)
  await sql`drop function audit_records_append_only()`.execute(db)
}
