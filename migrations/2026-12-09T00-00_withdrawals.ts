import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

const CHECK = 'tenant_events_type_check'

/** The types the tenant stream's check allows now: other migrations may add theirs, so they are read, not assumed. */
async function tenantEventTypes(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(oid) as def from pg_constraint where conname = ${CHECK} and conrelid = 'tenant_events'::regclass`.execute(db)
  return [...(rows[0]?.def ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!)
}

async function setTenantEventTypes(db: Kysely<any>, types: readonly string[]): Promise<void> {
  await sql`alter table tenant_events drop constraint ${sql.raw(CHECK)}`.execute(db)
  const list = sql.join(types.map((type) => sql.lit(type)))
  await sql`alter table tenant_events add constraint ${sql.raw(CHECK)} check (type in (${list}))`.execute(db)
}

/**
 * Destinations and withdrawals with four eyes (docs/accounts.md, "Withdrawals"): where a tenant's
 * money may go; each withdrawal a bank asks for, holding its amount while pending, idempotent by
 * (tenant, reference), its approvals kept on the row (one row lock decides every move); the daily
 * limits per tenant and currency; the approval threshold per currency; the `withdrawal` event type.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table withdrawal_destinations (
      uid uuid primary key,
      tenant_id uuid not null references tenants (id),
      currency text not null references currencies (code),
      label text not null check (length(label) between 1 and 200),
      iban text not null check (length(iban) between 15 and 34),
      created_at timestamp(6) not null default timezone('utc', now())
    )`.execute(db)
  await sql`create index withdrawal_destinations_tenant_idx on withdrawal_destinations (tenant_id, created_at, uid)`.execute(db)
  await sql`create index withdrawal_destinations_created_idx on withdrawal_destinations (created_at, uid)`.execute(db)

  await sql`
    create table withdrawals (
      uid uuid primary key,
      tenant_id uuid not null references tenants (id),
      currency text not null references currencies (code),
      amount numeric not null check (amount > 0),
      destination_uid uuid not null references withdrawal_destinations (uid),
      reference text not null check (length(reference) between 1 and 200),
      status text not null default 'pending' check (status in ('pending', 'completed', 'rejected', 'cancelled')),
      requested_by uuid not null,
      approvals jsonb not null default '[]'::jsonb,
      reason text check (length(reason) between 1 and 500),
      created_at timestamp(6) not null,
      updated_at timestamp(6) not null,
      decided_at timestamp(6),
      constraint withdrawals_reference_key unique (tenant_id, reference),
      constraint withdrawals_decided check ((status = 'pending') = (decided_at is null))
    )`.execute(db)
  await sql`create index withdrawals_tenant_created_idx on withdrawals (tenant_id, created_at, uid)`.execute(db)
  await sql`create index withdrawals_created_idx on withdrawals (created_at, uid)`.execute(db)
  // The daily limit's sum: a tenant's withdrawals of one currency since the UTC day began.
  await sql`create index withdrawals_daily_idx on withdrawals (tenant_id, currency, created_at) where status in ('pending', 'completed')`.execute(db)

  await sql`
    create table withdrawal_limits (
      tenant_id uuid not null references tenants (id),
      currency text not null references currencies (code),
      daily numeric not null check (daily >= 0),
      updated_at timestamp(6) not null default timezone('utc', now()),
      primary key (tenant_id, currency)
    )`.execute(db)

  await sql`
    create table withdrawal_thresholds (
      currency text primary key references currencies (code),
      approval_threshold numeric not null check (approval_threshold > 0),
      updated_at timestamp(6) not null default timezone('utc', now())
    )`.execute(db)

  const types = await tenantEventTypes(db)
  if (!types.includes('withdrawal')) await setTenantEventTypes(db, [...types, 'withdrawal'])
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from tenant_events where type = 'withdrawal'`.execute(db)
  await setTenantEventTypes(
    db,
    (await tenantEventTypes(db)).filter((type) => type !== 'withdrawal'),
  )
  await sql`drop table withdrawal_thresholds`.execute(db)
  await sql`drop table withdrawal_limits`.execute(db)
  await sql`drop table withdrawals`.execute(db)
  await sql`drop table withdrawal_destinations`.execute(db)
}
