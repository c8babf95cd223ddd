import { randomInt } from 'node:crypto'

import { type RawBuilder, sql } from 'kysely'

import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, subtract, ZERO } from '../../../core/decimal.ts'
import { uuidv7 } from '../../../core/ids.ts'
import { orderAndPageFirstRows, type PageRows, totalOverAll, withTotal } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { type Db, executePrepared } from '../../../db/database.ts'
import type { LedgerKind } from '../../../db/schema.ts'
import { appendNumbered, appendTenantEvents, notifyEvents, type TenantEventWrite, tenantStream } from '../event-log/event-log.ts'
import { accountRecord, type AccountRow, ledgerEntryRecord, type LedgerEntryRow } from './account-records.ts'
import type { LedgerListQuery } from './accounts.schemas.ts'

export type { AccountRow, LedgerEntryRow }

export async function findCurrencyPrecision(db: Db, code: string): Promise<number | undefined> {
  const row = await db.selectFrom('currencies').select('precision').where('code', '=', code).executeTakeFirst()
  return row?.precision
}

/** One account (zeros and no `updated_at` when never used), or undefined for an unknown currency. */
export async function findAccount(db: Db, tenantId: string, currency: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('currencies as c')
    .leftJoin('accounts as a', (join) => join.onRef('a.currency', '=', 'c.code').on('a.tenant_id', '=', tenantId))
    .select([
      sql<string>`${tenantId}::uuid`.as('tenant_id'),
      'c.code as currency',
      sql<string>`coalesce(a.balance, 0)`.as('balance'),
      sql<string>`coalesce(a.hold, 0)`.as('hold'),
      'a.updated_at',
      'c.precision',
    ])
    .where('c.code', '=', currency)
    .executeTakeFirst()
}

/** A tenant's accounts by currency, one page, and how many it has. */
export async function listAccountRows(db: Db, tenantId: string, offset: number, limit: number): Promise<PageRows<AccountRow>> {
  const rows = await db
    .selectFrom('accounts as a')
    .innerJoin('currencies as c', 'c.code', 'a.currency')
    .select(['a.tenant_id', 'a.currency', 'a.balance', 'a.hold', 'a.updated_at', 'c.precision'])
    .select(totalOverAll)
    .where('a.tenant_id', '=', tenantId)
    .orderBy('a.currency')
    .offset(offset)
    .limit(limit)
    .execute()
  return withTotal(rows, { offset }, async () => {
    const { n } = await db
      .selectFrom('accounts')
      .select(sql<number>`count(*)::int8`.as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
    return n
  })
}

function filteredEntries(db: Db, query: LedgerListQuery, tenantId: string | undefined) {
  let q = db.selectFrom('ledger_entries').innerJoin('currencies', 'currencies.code', 'ledger_entries.currency')
  if (tenantId !== undefined) q = q.where('ledger_entries.tenant_id', '=', tenantId)
  if (query.currency !== undefined) q = q.where('ledger_entries.currency', '=', query.currency)
  if (query.kind !== undefined) q = q.where('ledger_entries.kind', '=', query.kind)
  if (query.order_uid !== undefined) q = q.where('ledger_entries.order_uid', '=', query.order_uid)
  if (query.created_at_from) q = q.where('ledger_entries.created_at', '>=', query.created_at_from)
  if (query.created_at_to) q = q.where('ledger_entries.created_at', '<=', query.created_at_to)
  return q
}

/** One page of ledger entries (of one tenant, or of all when `tenantId` is undefined) and how many match. */
export async function listLedgerRows(db: Db, query: LedgerListQuery, tenantId: string | undefined): Promise<PageRows<LedgerEntryRow>> {
  const rows = await orderAndPageFirstRows(
    filteredEntries(db, query, tenantId).selectAll('ledger_entries').select('currencies.precision').select(totalOverAll),
    'ledger_entries',
    query,
  ).execute()
  return withTotal(rows, query, async () => {
    const { n } = await filteredEntries(db, query, tenantId)
      .select(sql<number>`count(*)::int8`.as('n'))
      .executeTakeFirstOrThrow()
    return n
  })
}

export async function findEntryByReference(db: Db, tenantId: string, reference: string): Promise<LedgerEntryRow | undefined> {
  return db
    .selectFrom('ledger_entries')
    .innerJoin('currencies', 'currencies.code', 'ledger_entries.currency')
    .selectAll('ledger_entries')
    .select('currencies.precision')
    .where('ledger_entries.tenant_id', '=', tenantId)
    .where('ledger_entries.reference', '=', reference)
    .executeTakeFirst()
}

// --- Applying changes (docs/accounts.md, "Applying changes") ---

/** A ledger entry to write: its amount is what it adds to (or, negative, takes from) the balance. */
export interface LedgerEntryWrite {
  kind: LedgerKind
  /** Signed, never 0. */
  amount: string
  order_uid?: string | null
  trade_uid?: string | null
  reference?: string | null
}

/**
 * A change of one account: its balance moves by the sum of `entries`, its hold by `hold` (signed;
 * an order taking a hold adds, a fill or an order's end releases). Several changes may name one
 * account: they are applied together, in the order given.
 */
export interface AccountChange {
  tenant_id: string
  currency: string
  hold?: string
  entries?: LedgerEntryWrite[]
}

/** An account a batch would leave with less than nothing available: what it has, what the batch needs of it. */
export interface AccountRefusal {
  tenant_id: string
  currency: string
  available: string
  required: string
}

/** An account as a batch left it, and the entries the batch wrote to it (in order). */
export interface ChangedAccount {
  account: AccountRow
  entries: LedgerEntryRow[]
}

export type AppliedChanges = { ok: true; now: string; accounts: ChangedAccount[] } | { ok: false; refused: AccountRefusal[] }

export interface ApplyOptions {
  /** Fees the exchange center collects in this batch, per currency (added to `collected_fees`). */
  fees?: readonly { currency: string; amount: string }[]
}

// Shards of a currency's collected fees: passes on many symbols of one quote currency add to different rows.
const FEE_SHARDS = 8

interface Grouped {
  tenant_id: string
  currency: string
  balanceDelta: DecimalValue
  holdDelta: DecimalValue
  entries: LedgerEntryWrite[]
}

const byAccount = (a: { tenant_id: string; currency: string }, b: { tenant_id: string; currency: string }) =>
  a.tenant_id < b.tenant_id ? -1 : a.tenant_id > b.tenant_id ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0

/** The changes per account, in the one global lock order: (tenant_id, currency). */
function group(changes: readonly AccountChange[]): Grouped[] {
  const groups = new Map<string, Grouped>()
  for (const change of changes) {
    const key = `${change.tenant_id} ${change.currency}`
    let entry = groups.get(key)
    if (!entry) groups.set(key, (entry = { tenant_id: change.tenant_id, currency: change.currency, balanceDelta: ZERO, holdDelta: ZERO, entries: [] }))
    if (change.hold !== undefined) entry.holdDelta = add(entry.holdDelta, decimalFromStore(change.hold))
    for (const write of change.entries ?? []) {
      const amount = decimalFromStore(write.amount)
      if (amount.coefficient === 0n) continue
      entry.balanceDelta = add(entry.balanceDelta, amount)
      entry.entries.push(write)
    }
  }
  return [...groups.values()].filter((g) => g.entries.length > 0 || g.holdDelta.coefficient !== 0n).sort(byAccount)
}

/** What a batch writes once its accounts are locked and checked: each account once, its entries, the fees. */
export interface AccountWrite {
  accounts: AccountRow[]
  entries: LedgerEntryRow[]
  /** Per currency, in currency order. */
  fees: { currency: string; amount: string }[]
  /** The row of `collected_fees` this batch adds to. */
  shard: number
}

export type LockedChanges = { ok: true; now: string; accounts: ChangedAccount[]; write: AccountWrite } | { ok: false; refused: AccountRefusal[] }

// Tells the pass's prepared text from the same statement planned on each call elsewhere.
const IN_PASS = sql.raw(' -- in a matching pass')

/**
 * The first half of applying a batch (docs/accounts.md): locks the accounts it names in
 * (tenant_id, currency) order — the one lock order of every writer of accounts, so two batches
 * never deadlock on them — reading their balances and holds (creating first, with zeros, those
 * that do not exist yet); refuses when any account would end with `balance − hold < 0` (or a
 * negative balance or hold), naming each such account with what it has and needs; otherwise
 * answers the accounts as the batch leaves them and what to write (`accountWrites`).
 */
export async function lockAccountChanges(
  db: Db,
  changes: readonly AccountChange[],
  collected: readonly { currency: string; amount: string }[] = [],
  { inPass = false }: { inPass?: boolean } = {},
): Promise<LockedChanges> {
  const groups = group(changes)
  const fees = collected.filter((f) => decimalFromStore(f.amount).coefficient !== 0n)
  if (fees.some((f) => decimalFromStore(f.amount).coefficient < 0n)) throw new RangeError('collected fees only grow')
  const tenants = groups.map((g) => g.tenant_id)
  const currencies = groups.map((g) => g.currency)
  const statement = sql<AccountRow & { now: string }>`
    select a.tenant_id, a.currency, a.balance::text as balance, a.hold::text as hold, a.updated_at, c.precision,
      timezone('utc', now())::timestamp(6)::text as now
    from accounts a join currencies c on c.code = a.currency
    where (a.tenant_id, a.currency) in (select * from unnest(${tenants}::uuid[], ${currencies}::text[]))
    order by a.tenant_id, a.currency
    for update of a${inPass ? IN_PASS : sql``}`
  // A matching pass's plans are made by key (matching.repository.ts, PASS_PLANNER): there, and only
  // there, the statement is prepared once per connection instead of planned each time.
  const lock = () => (inPass ? executePrepared(db, 'lock_pass_accounts', statement) : statement.execute(db))
  // Accounts are made on first use: only then does a batch pay a second statement (and lock again).
  let locked = groups.length > 0 ? (await lock()).rows : []
  if (locked.length < groups.length) {
    await sql`
      insert into accounts (tenant_id, currency)
      select t, c from unnest(${tenants}::uuid[], ${currencies}::text[]) as a(t, c) order by t, c
      on conflict do nothing`.execute(db)
    locked = (await lock()).rows
  }
  const now = locked[0]?.now ?? (await sql<{ now: string }>`select timezone('utc', now())::timestamp(6)::text as now`.execute(db)).rows[0]!.now
  const refused: AccountRefusal[] = []
  const results: ChangedAccount[] = []
  groups.forEach((g, i) => {
    const row = locked[i]
    if (!row || row.tenant_id !== g.tenant_id || row.currency !== g.currency) throw new Error(`account ${g.tenant_id}/${g.currency} was not locked`)
    const balance = decimalFromStore(row.balance)
    const hold = decimalFromStore(row.hold)
    const newBalance = add(balance, g.balanceDelta)
    const newHold = add(hold, g.holdDelta)
    if (newHold.coefficient < 0n)
      throw new Error(`account ${g.tenant_id}/${g.currency}: releasing more than is held (${row.hold} + ${formatDecimal(g.holdDelta)})`)
    if (newBalance.coefficient < 0n || compareDecimals(newHold, newBalance) > 0) {
      refused.push({
        tenant_id: g.tenant_id,
        currency: g.currency,
        available: formatDecimal(subtract(balance, hold)),
        required: formatDecimal(subtract(g.holdDelta, g.balanceDelta)),
      })
      return
    }
    let running = balance
    const entries: LedgerEntryRow[] = g.entries.map((write) => {
      running = add(running, decimalFromStore(write.amount))
      return {
        uid: uuidv7(),
        created_at: now,
        tenant_id: g.tenant_id,
        currency: g.currency,
        amount: write.amount,
        balance_after: formatDecimal(running),
        kind: write.kind,
        order_uid: write.order_uid ?? null,
        trade_uid: write.trade_uid ?? null,
        reference: write.reference ?? null,
        precision: row.precision,
      }
    })
    results.push({ account: { ...row, balance: formatDecimal(newBalance), hold: formatDecimal(newHold), updated_at: now }, entries })
  })
  if (refused.length > 0) return { ok: false, refused }
  const write: AccountWrite = {
    accounts: results.map((r) => r.account),
    entries: results.flatMap((r) => r.entries),
    fees: [...fees].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)),
    shard: randomInt(FEE_SHARDS),
  }
  return { ok: true, now, accounts: results, write }
}

/**
 * The second half: the common table expressions (`accounts_written`, `ledger_written`,
 * `fees_collected`) that write a locked batch, for a statement of the caller's to begin with —
 * alone, or with the matching pass's other writes, its rows then hanging on the book row's CTE
 * named in `gate` (docs/accounts.md, "In the matching pass").
 */
export function accountWrites(write: AccountWrite, now: string, gate?: 'book'): RawBuilder<unknown> {
  const { accounts, entries, fees } = write
  const col = <T, K extends keyof T>(rows: readonly T[], key: K) => rows.map((row) => row[key])
  const join = gate ? sql.raw(`cross join ${gate}`) : sql.raw('')
  return sql`accounts_written as (
      update accounts a set balance = c.balance, hold = c.hold, updated_at = ${now}::timestamp(6)
      from unnest(${col(accounts, 'tenant_id')}::uuid[], ${col(accounts, 'currency')}::text[], ${col(accounts, 'balance')}::numeric[],
        ${col(accounts, 'hold')}::numeric[]) as c(tenant_id, currency, balance, hold) ${join}
      where a.tenant_id = c.tenant_id and a.currency = c.currency
      returning a.tenant_id
    ), ledger_written as (
      insert into ledger_entries (uid, created_at, tenant_id, currency, amount, balance_after, kind, order_uid, trade_uid, reference)
      select e.uid, ${now}::timestamp(6), e.tenant_id, e.currency, e.amount, e.balance_after, e.kind, e.order_uid, e.trade_uid, e.reference
      from unnest(${col(entries, 'uid')}::uuid[], ${col(entries, 'tenant_id')}::uuid[], ${col(entries, 'currency')}::text[],
        ${col(entries, 'amount')}::numeric[], ${col(entries, 'balance_after')}::numeric[], ${col(entries, 'kind')}::text[],
        ${col(entries, 'order_uid')}::uuid[], ${col(entries, 'trade_uid')}::uuid[], ${col(entries, 'reference')}::text[])
        as e(uid, tenant_id, currency, amount, balance_after, kind, order_uid, trade_uid, reference) ${join}
      returning uid
    ), fees_collected as (
      insert into collected_fees as f (currency, shard, amount, updated_at)
      select x.currency, ${write.shard}::int2, sum(x.amount), ${now}::timestamp(6)
      from unnest(${col(fees, 'currency')}::text[], ${col(fees, 'amount')}::numeric[]) as x(currency, amount) ${join}
      group by x.currency order by x.currency
      on conflict (currency, shard) do update set amount = f.amount + excluded.amount, updated_at = excluded.updated_at
      returning f.currency
    )`
}

/**
 * Applies a batch of account changes inside the caller's transaction: locks and checks
 * (`lockAccountChanges`), then writes every account once, the ledger entries with their
 * `balance_after` and the collected fees in ONE statement, then one `balance` event per changed account on its tenant's stream. Locks taken: accounts, then
 * collected_fees (currency order), then tenant_event_counters (tenant order). A caller holding
 * other locks takes them in that order after its own (the matching pass: its symbol's book row,
 * then these, then its own tenant events).
 */
export async function applyAccountChanges(db: Db, changes: readonly AccountChange[], options: ApplyOptions = {}): Promise<AppliedChanges> {
  const locked = await lockAccountChanges(db, changes, options.fees)
  if (!locked.ok) return locked
  await sql`with ${accountWrites(locked.write, locked.now)}
    select (select count(*) from accounts_written) as accounts, (select count(*) from ledger_written) as entries,
      (select count(*) from fees_collected) as fees`.execute(db)
  await writeBalanceEvents(db, locked.now, locked.accounts)
  return { ok: true, now: locked.now, accounts: locked.accounts }
}

// --- Events ---

/**
 * One `balance` event per changed account on its tenant's stream, appended by the event log as
 * the matching pass's events are (event-log/event-log.ts), and a
 * notification waking every process's streams of those tenants once the transaction commits.
 */
export async function writeBalanceEvents(db: Db, now: string, changed: readonly ChangedAccount[]): Promise<void> {
  if (changed.length === 0) return
  const events: TenantEventWrite[] = []
  appendNumbered(events, balanceEvents(now, changed))
  await appendTenantEvents(db, events, now)
  await notifyEvents(db, [['accounts', ...new Set(events.map((event) => tenantStream(event.tenant_id)))].join(' ')])
}

/** One `balance` event per changed account, in order, not yet numbered. */
export function balanceEvents(now: string, changed: readonly ChangedAccount[]): Omit<TenantEventWrite<'balance'>, 'ordinal'>[] {
  return changed.map((c) => ({ tenant_id: c.account.tenant_id, type: 'balance', rest: balanceEventTail(now, c) }))
}

/** A `balance` event's JSON body after its `"sequence"` member, as a tenant stream's events are stored. */
export function balanceEventTail(now: string, { account, entries }: ChangedAccount): string {
  const last = entries.at(-1)
  const body = JSON.stringify({
    type: 'balance',
    created_at: formatTimestamp(now),
    account: accountRecord(account),
    entry: last ? ledgerEntryRecord(last) : null,
    order: null,
    fill: null,
  })
  return `,${body.slice(1)}`
}
