import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Webhooks (docs/webhooks.md): a tenant's endpoints, each with its delivery cursor (the last
 * sequence of the tenant's stream it delivered or passed over), its retry state and the lease of
 * the process delivering it; and every delivery attempt. The cursor moves in the statement that
 * records an attempt's outcome, so a crash resumes from it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      uid uuid primary key,
      tenant_id uuid not null references tenants (id),
      client_id uuid not null references clients (id),
      scopes text[] not null,
      url text not null,
      events text[] not null,
      description text not null default '',
      is_active boolean not null default true,
      disabled_reason text,
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamp(6),
      cursor bigint not null check (cursor >= 0),
      failures integer not null default 0 check (failures >= 0),
      next_attempt_at timestamp(6),
      lease_owner text,
      lease_expires_at timestamp(6),
      created_at timestamp(6) not null default (now() at time zone 'utc'),
      updated_at timestamp(6) not null default (now() at time zone 'utc')
    )`.execute(db)
  await sql`create index webhook_endpoints_tenant on webhook_endpoints (tenant_id, created_at, uid)`.execute(db)
  await sql`
    create table webhook_deliveries (
      id bigint generated always as identity primary key,
      endpoint_uid uuid not null references webhook_endpoints (uid) on delete cascade,
      event_sequence bigint not null,
      attempt integer not null check (attempt >= 1),
      status_code integer,
      duration_ms integer not null check (duration_ms >= 0),
      error text,
      created_at timestamp(6) not null,
      next_attempt_at timestamp(6)
    )`.execute(db)
  await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_uid, id)`.execute(db)
  await sql`create index webhook_deliveries_created on webhook_deliveries (created_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_deliveries`.execute(db)
  await sql`drop table webhook_endpoints`.execute(db)
}
