import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/** The default scopes of a client before accounts existed: clients still holding exactly these gain `accounts:read`. */
const OLD_DEFAULT_SCOPES = ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write']

/**
 * Accounts, holds and settlement (docs/accounts.md): one account per (tenant, currency) whose
 * balance never goes below its hold nor below zero; an append-only ledger every balance is the
 * sum of; what each order holds; the fees the exchange center collected, per currency in a few
 * shards (a busy quote currency's fee row is not one hot row); the fee rates of each symbol; the
 * `balance` event type of the tenant stream; and the scope `accounts:read` for clients that still
 * hold the old default scopes (their admins `accounts:write` too).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table accounts (
      tenant_id uuid not null references tenants (id),
      currency text not null references currencies (code),
      balance numeric not null default 0,
      hold numeric not null default 0,
      updated_at timestamp(6) not null default timezone('utc', now()),
      primary key (tenant_id, currency),
      constraint accounts_balance_not_negative check (balance >= 0),
      constraint accounts_hold_not_negative check (hold >= 0),
      constraint accounts_hold_within_balance check (hold <= balance)
    )`.execute(db)

  await sql`
    create table ledger_entries (
      uid uuid primary key,
      created_at timestamp(6) not null default timezone('utc', now()),
      tenant_id uuid not null,
      currency text not null,
      amount numeric not null check (amount <> 0),
      balance_after numeric not null check (balance_after >= 0),
      kind text not null check (kind in ('deposit', 'withdrawal', 'trade', 'fee')),
      order_uid uuid,
      trade_uid uuid,
      reference text check (length(reference) between 1 and 200),
      foreign key (tenant_id, currency) references accounts (tenant_id, currency),
      constraint ledger_entries_transfer_sign check (
        (kind = 'deposit' and amount > 0) or (kind = 'withdrawal' and amount < 0) or kind in ('trade', 'fee'))
    )`.execute(db)
  // A transfer's reference is its idempotency key, per tenant.
  await sql`create unique index ledger_entries_reference_idx on ledger_entries (tenant_id, reference) where reference is not null`.execute(db)
  // The list: a tenant's entries in time order, optionally of one currency; admins' across tenants.
  await sql`create index ledger_entries_tenant_created_idx on ledger_entries (tenant_id, created_at, uid)`.execute(db)
  await sql`create index ledger_entries_tenant_currency_created_idx on ledger_entries (tenant_id, currency, created_at, uid)`.execute(db)
  await sql`create index ledger_entries_created_idx on ledger_entries (created_at, uid)`.execute(db)
  await sql`create index ledger_entries_order_idx on ledger_entries (order_uid) where order_uid is not null`.execute(db)

  await sql`
    create table collected_fees (
      currency text not null references currencies (code),
      shard smallint not null,
      amount numeric not null default 0 check (amount >= 0),
      updated_at timestamp(6) not null default timezone('utc', now()),
      primary key (currency, shard)
    )`.execute(db)

  // What an order still holds of its tenant's account in `hold_currency` (quote for a buy, base for
  // a sell), and the exact (unrounded) fees its fills accrued: what it was charged is that rounded up.
  await sql`
    alter table orders
      add column hold numeric not null default 0 check (hold >= 0),
      add column hold_currency text references currencies (code),
      add column fee_accrued numeric not null default 0 check (fee_accrued >= 0)`.execute(db)
  await sql`create index orders_holds_idx on orders (tenant_id, hold_currency) where hold > 0`.execute(db)

  await sql`
    alter table symbols
      add column maker_fee_percent numeric not null default 0 check (maker_fee_percent >= 0 and maker_fee_percent < 100),
      add column taker_fee_percent numeric not null default 0 check (taker_fee_percent >= 0 and taker_fee_percent < 100)`.execute(db)

  await sql`alter table tenant_events drop constraint tenant_events_type_check`.execute(db)
  await sql`
    alter table tenant_events add constraint tenant_events_type_check
      check (type in ('order.created', 'order.updated', 'fill', 'balance'))`.execute(db)

  const old = sql`array[${sql.join(OLD_DEFAULT_SCOPES)}]::text[]`
  await sql`
    update clients set
      scopes = scopes || case when 'admin' = any (roles) then array['accounts:read', 'accounts:write'] else array['accounts:read'] end,
      updated_at = timezone('utc', now())
    where scopes @> ${old} and scopes <@ ${old}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update clients set scopes = array_remove(array_remove(scopes, 'accounts:read'), 'accounts:write')`.execute(db)
  await sql`delete from tenant_events where type = 'balance'`.execute(db)
  await sql`alter table tenant_events drop constraint tenant_events_type_check`.execute(db)
  await sql`alter table tenant_events add constraint tenant_events_type_check check (type in ('order.created', 'order.updated', 'fill'))`.execute(db)
  await sql`alter table symbols drop column taker_fee_percent, drop column maker_fee_percent`.execute(db)
  await sql`drop index orders_holds_idx`.execute(db)
  await sql`alter table orders drop column fee_accrued, drop column hold_currency, drop column hold`.execute(db)
  await sql`drop table collected_fees`.execute(db)
  await sql`drop table ledger_entries`.execute(db)
  await sql`drop table accounts`.execute(db)
}
