import { assertTenantAccess, isAdmin, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import {
  add,
  compareDecimals,
  decimalFromStore,
  type DecimalValue,
  formatDecimalAtLeast,
  hasAtMostPlaces,
  parseDecimal,
  subtract,
} from '../../../core/decimal.ts'
import { conflict, echoed, notFound, validationError, type ValidationIssue } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { adminMutation } from '../../audit/admin-operations.ts'
import { findTenant } from '../../auth/clients/tenants.repository.ts'
import { tenantStream } from '../event-log/event-log.ts'
import { collectedFeeTotals, conservationTotals, endedOrdersHolding, holdMismatches, ledgerMismatches } from './account-check.repository.ts'
import {
  type AccountRow,
  applyAccountChanges,
  findAccount,
  findCurrencyPrecision,
  findEntryByReference,
  type LedgerEntryRow,
  listAccountRows,
  listLedgerRows,
} from './accounts.repository.ts'
import { accountListQuery, accountQuery, ledgerListQuery, MAX_CURRENCY_LENGTH, type TransferBody, transferBody } from './accounts.schemas.ts'

export const ACCOUNTS_READ = 'accounts:read'
export const ACCOUNTS_WRITE = 'accounts:write'

/**
 * Accounts, the ledger and transfers (docs/accounts.md): both faces and the operator CLI go
 * through these operations. Balances change only through `applyAccountChanges`.
 */

/** The caller's tenant, or the one asked for: its own, or any for an admin (403 otherwise). */
function tenantOf(principal: Principal, requested: string | undefined): string {
  if (requested === undefined) return principal.tenantId
  assertTenantAccess(principal, requested)
  return requested
}

/** The caller's tenant's accounts, by currency (admins: another tenant's with `tenant_id`). */
export async function listAccounts(ctx: RequestContext, input: unknown): Promise<Page<AccountRow>> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const query = parseInput(accountListQuery, input, 'query')
  const page = await listAccountRows(ctx.services.db, tenantOf(principal, query.tenant_id), query.offset, query.limit)
  return { ...page, offset: query.offset, limit: query.limit }
}

/** One account of the caller's tenant: zeros when never used; an unknown currency is 404. */
export async function getAccount(ctx: RequestContext, currency: string, input: unknown = {}): Promise<AccountRow> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const query = parseInput(accountQuery, input, 'query')
  const tenantId = tenantOf(principal, query.tenant_id)
  const row = currency.length <= MAX_CURRENCY_LENGTH ? await findAccount(ctx.services.db, tenantId, currency.toUpperCase()) : undefined
  if (!row) throw notFound(`Currency ${echoed(currency)} not found`)
  return row
}

/** The caller's tenant's ledger (admins: every tenant's, or one with `tenant_id`). */
export async function listLedger(ctx: RequestContext, input: unknown): Promise<Page<LedgerEntryRow>> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const query = parseInput(ledgerListQuery, input, 'query')
  if (query.tenant_id !== undefined) assertTenantAccess(principal, query.tenant_id)
  const tenantId = query.tenant_id ?? (isAdmin(principal) ? undefined : principal.tenantId)
  const page = await listLedgerRows(ctx.services.db, query, tenantId)
  return { ...page, offset: query.offset, limit: query.limit }
}

export interface TransferResult {
  entry: LedgerEntryRow
  /** False when `reference` named the same transfer made before: nothing was credited again. */
  created: boolean
}

/** `POST /api/exchange/v1/transfers`: admins with `accounts:write` fund or debit a tenant's account. */
export async function createTransfer(ctx: RequestContext, input: () => unknown): Promise<TransferResult> {
  return adminMutation(ctx, { scope: ACCOUNTS_WRITE, action: 'account.transfer' }, async () => {
    const result = await transfer(ctx.services.db, await input())
    if (result.created) ctx.services.events.wake([tenantStream(result.entry.tenant_id)])
    const { entry } = result
    const details = { uid: entry.uid, kind: entry.kind, currency: entry.currency, amount: entry.amount, reference: entry.reference, created: result.created }
    return { result, target: { type: 'tenant', id: entry.tenant_id }, details }
  })
}

const UNIQUE_VIOLATION = '23505'

/**
 * A deposit or withdrawal (operators: CLI; admins: API), idempotent by `(tenant, reference)`: the
 * same transfer again answers the entry made the first time, a different one with the same
 * reference is 409. A withdrawal beyond what is available is 422 `value_error.insufficient_balance`.
 * The entry, the account and its `balance` event are written in one transaction.
 */
export async function transfer(db: Db, input: unknown): Promise<TransferResult> {
  const body = parseInput(transferBody, input, 'body')
  const precision = await checkTransfer(db, body)
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const existing = await findEntryByReference(trx, body.tenant_id, body.reference)
        if (existing) return { entry: replayed(existing, body), created: false }
        const amount = body.kind === 'deposit' ? body.amount : `-${body.amount}`
        const applied = await applyAccountChanges(trx, [
          { tenant_id: body.tenant_id, currency: body.currency, entries: [{ kind: body.kind, amount, reference: body.reference }] },
        ])
        if (!applied.ok) {
          const { available } = applied.refused[0]!
          throw validationError([
            insufficientBalanceIssue(body.currency, decimalFromStore(available), decimalFromStore(body.amount), precision, 'amount', body.amount),
          ])
        }
        return { entry: applied.accounts[0]!.entries[0]!, created: true }
      })
    } catch (error) {
      // Two transfers with one reference at once: the loser's insert hits the unique index; its
      // retry finds the winner's entry.
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION && attempt === 0) continue
      throw error
    }
  }
}

/** What is wrong with a positive amount of a currency of `precision` places (none when it is right). */
export function amountIssues(text: string, precision: number | undefined): ValidationIssue[] {
  const amount = parseDecimal(text)!
  if (amount.coefficient === 0n) {
    return [{ type: 'value_error.number.not_gt', loc: ['body', 'amount'], msg: 'ensure this value is greater than 0', input: text, ctx: { limit_value: '0' } }]
  }
  if (precision !== undefined && !hasAtMostPlaces(amount, precision)) {
    return [
      {
        type: 'value_error.decimal.max_places',
        loc: ['body', 'amount'],
        msg: `ensure that there are no more than ${precision} decimal places`,
        input: text,
        ctx: { decimal_places: precision },
      },
    ]
  }
  return []
}

/** The currency's precision, once the transfer is known to be well formed (422 naming every problem otherwise). */
async function checkTransfer(db: Db, body: TransferBody): Promise<number> {
  const [precision, tenant] = await Promise.all([findCurrencyPrecision(db, body.currency), findTenant(db, body.tenant_id)])
  const issues: ValidationIssue[] = []
  if (!tenant) issues.push({ type: 'value_error.tenant', loc: ['body', 'tenant_id'], msg: `unknown tenant ${body.tenant_id}`, input: body.tenant_id })
  if (precision === undefined) {
    issues.push({ type: 'value_error.currency', loc: ['body', 'currency'], msg: `unknown currency ${body.currency}`, input: body.currency })
  }
  issues.push(...amountIssues(body.amount, precision))
  if (issues.length > 0) throw validationError(issues)
  return precision!
}

/** The entry of an earlier transfer with this reference: the same transfer (200), or a conflict (409). */
function replayed(existing: LedgerEntryRow, body: TransferBody): LedgerEntryRow {
  const amount = decimalFromStore(existing.amount)
  const sent = decimalFromStore(body.kind === 'deposit' ? body.amount : `-${body.amount}`)
  if (existing.currency !== body.currency || existing.kind !== body.kind || compareDecimals(amount, sent) !== 0) {
    throw conflict(`Reference ${echoed(body.reference)} was used for a different transfer`)
  }
  return existing
}

/**
 * The 422 item of a spend beyond what is available (docs/accounts.md): a withdrawal's `amount` or
 * an order's `quantity` (whose hold it would need), with the amounts at the currency's precision.
 */
export function insufficientBalanceIssue(
  currency: string,
  available: DecimalValue,
  required: DecimalValue,
  precision: number,
  field: 'amount' | 'quantity' | 'price',
  input: string,
): ValidationIssue {
  const [have, need] = [available, required].map((v) => formatDecimalAtLeast(v, Math.max(0, precision)))
  return {
    type: 'value_error.insufficient_balance',
    loc: ['body', field],
    msg: `insufficient balance: ${currency} available ${have}, required ${need}`,
    input,
    ctx: { currency, available: have, required: need },
  }
}

/** What the exchange center collected, per currency, at each currency's precision. */
export async function accountFees(db: Db): Promise<{ currency: string; amount: string }[]> {
  return (await collectedFeeTotals(db)).map((row) => ({
    currency: row.currency,
    amount: formatDecimalAtLeast(decimalFromStore(row.amount), Math.max(row.precision, 0)),
  }))
}

export interface Discrepancy {
  check: 'conservation' | 'ledger' | 'hold' | 'ended_order_hold'
  message: string
}

/**
 * `account check` (docs/accounts.md, "The check"): per currency Σ balances + Σ collected fees =
 * Σ deposits − Σ withdrawals; every balance = Σ its ledger; every hold = Σ its open orders' holds + its pending withdrawals;
 * no ended order still holds anything. Answers every discrepancy found (none: all is accounted for).
 */
export async function checkAccounts(db: Db): Promise<{ currencies: number; discrepancies: Discrepancy[] }> {
  const discrepancies: Discrepancy[] = []
  const totals = await conservationTotals(db)
  for (const row of totals) {
    const held = add(decimalFromStore(row.balances), decimalFromStore(row.fees))
    const funded = subtract(decimalFromStore(row.deposits), decimalFromStore(row.withdrawals))
    if (compareDecimals(held, funded) !== 0) {
      discrepancies.push({
        check: 'conservation',
        message: `${row.currency}: balances ${row.balances} + fees ${row.fees} != deposits ${row.deposits} - withdrawals ${row.withdrawals}`,
      })
    }
  }
  for (const row of await ledgerMismatches(db)) {
    discrepancies.push({ check: 'ledger', message: `account ${row.tenant_id} ${row.currency}: balance ${row.balance} != ledger sum ${row.ledger}` })
  }
  for (const row of await holdMismatches(db)) {
    discrepancies.push({
      check: 'hold',
      message: `account ${row.tenant_id} ${row.currency}: hold ${row.hold} != open orders' holds and pending withdrawals ${row.orders}`,
    })
  }
  for (const row of await endedOrdersHolding(db)) {
    discrepancies.push({
      check: 'ended_order_hold',
      message: `order ${row.uid} (${row.status}) of ${row.tenant_id} still holds ${row.hold} ${row.currency ?? ''}`.trim(),
    })
  }
  return { currencies: totals.length, discrepancies }
}

/** Generous balances for the embedded demo's tenant, per demo currency (whole units). */
const DEMO_FUNDS: Record<string, string> = {
  IRR: '100000000000000',
  IRT: '10000000000000',
  USD: '10000000',
  EUR: '10000000',
  AED: '10000000',
  CNY: '10000000',
  USDT: '10000000',
  BTC: '1000',
  ETH: '10000',
}

/**
 * The embedded demo's first start funds its tenant in every demo currency (so the README's orders
 * trade), through deposits whose references make a repeat a no-op. `db seed` funds nobody.
 */
export async function fundDemoTenant(db: Db, tenantId: string): Promise<TransferResult[]> {
  const results: TransferResult[] = []
  for (const [currency, amount] of Object.entries(DEMO_FUNDS)) {
    results.push(await transfer(db, { tenant_id: tenantId, currency, amount, kind: 'deposit', reference: `demo-funding-${currency}` }))
  }
  return results
}
