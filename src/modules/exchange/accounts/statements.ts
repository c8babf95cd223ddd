import { assertTenantAccess, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { add, decimalFromStore, formatDecimalAtLeast, subtract } from '../../../core/decimal.ts'
import { echoed, notFound, validationError } from '../../../core/errors.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { type Location, parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import type { LedgerEntryRow } from './account-records.ts'
import { findCurrencyPrecision } from './accounts.repository.ts'
import { MAX_CURRENCY_LENGTH } from './accounts.schemas.ts'
import { ACCOUNTS_READ } from './accounts.ts'
import {
  type EntryKey,
  entryKey,
  type StatementEntry,
  statementEntryPage,
  statementEntryRows,
  type StatementTotals,
  statementTotals,
} from './statements.repository.ts'
import { statementCliInput, type StatementFormat, statementPageArgs, statementQuery } from './statements.schemas.ts'

/**
 * Entries read per keyset page. A statement holds two pages at once (the one being written and
 * the next, read meanwhile), whatever its length (docs/performance.md, "Statements").
 */
export const STATEMENT_PAGE_ROWS = 2000

/**
 * One account's statement over [from, to) (docs/accounts.md, "Statements"): its figures, summed
 * up front by one statement, and its entries, read page by page as they are written out.
 */
export interface Statement {
  tenantId: string
  currency: string
  precision: number
  /** UTC timestamps as stored (`2026-11-01 00:00:00.000000`). */
  from: string
  to: string
  totals: StatementTotals
  /**
   * The period's entries, oldest first, in pages; never more than `totals.count` (entries
   * committed since are left out). The next page is read while the caller writes this one.
   */
  pages: () => AsyncGenerator<StatementEntry[]>
}

/** The figures of a statement as its JSON form has them, in order. */
export function statementHead(s: Statement) {
  const at = (text: string) => formatDecimalAtLeast(decimalFromStore(text), Math.max(s.precision, 0))
  const closing = subtract(add(decimalFromStore(s.totals.opening), decimalFromStore(s.totals.credits)), decimalFromStore(s.totals.debits))
  return {
    tenant_id: s.tenantId,
    currency: s.currency,
    from: formatTimestamp(s.from),
    to: formatTimestamp(s.to),
    opening_balance: at(s.totals.opening),
    closing_balance: formatDecimalAtLeast(closing, Math.max(s.precision, 0)),
    total_credits: at(s.totals.credits),
    total_debits: at(s.totals.debits),
    entry_count: Number(s.totals.count),
  }
}
export type StatementHead = ReturnType<typeof statementHead>

/** The places of a currency named in a path (case-insensitive); an unknown one is 404, as `GET /accounts/<CODE>` answers it. */
async function currencyPrecision(db: Db, currency: string): Promise<number> {
  const precision = currency.length <= MAX_CURRENCY_LENGTH ? await findCurrencyPrecision(db, currency.toUpperCase()) : undefined
  if (precision === undefined) throw notFound(`Currency ${echoed(currency)} not found`)
  return precision
}

/** The statement of `tenantId`'s account in `currency` (case-insensitive; unknown → 404) over a checked period. */
export async function openStatement(db: Db, tenantId: string, currency: string, period: { from: string; to: string }): Promise<Statement> {
  const code = currency.toUpperCase()
  const precision = await currencyPrecision(db, currency)
  const totals = await statementTotals(db, tenantId, code, period.from, period.to)
  const count = Number(totals.count)
  return {
    tenantId,
    currency: code,
    precision,
    from: period.from,
    to: period.to,
    totals: { ...totals, count, credit_count: Number(totals.credit_count), debit_count: Number(totals.debit_count) },
    pages: async function* () {
      let left = count
      const read = (after: EntryKey | undefined) => statementEntryRows(db, tenantId, code, period, after, Math.min(STATEMENT_PAGE_ROWS, left))
      // The database works on the next page while this one is rendered and sent: reading and
      // writing in turn left the service idle for a round trip per page.
      let next = left > 0 ? read(undefined) : undefined
      try {
        while (next) {
          const rows = await next
          next = undefined
          if (rows.length === 0) return
          left -= rows.length
          if (left > 0) next = read(rows.at(-1)!)
          yield rows
        }
      } finally {
        // A client that left: the page read ahead is dropped, its failure too.
        next?.catch(() => {})
      }
    },
  }
}

/**
 * One page of a statement's entries for GraphQL (a list answer is bounded): the first `first`
 * after the entry `after` (an entry of this statement; else 422 `value_error.after`).
 */
export async function statementEntries(db: Db, statement: Statement, input: unknown): Promise<LedgerEntryRow[]> {
  const args = parseInput(statementPageArgs, input, 'query')
  let after: EntryKey | undefined
  if (args.after !== undefined) {
    after = await entryKey(db, statement.tenantId, statement.currency, statement, args.after)
    if (!after) {
      throw validationError([
        { type: 'value_error.after', loc: ['query', 'after'], msg: 'after must be the uid of an entry of this statement', input: args.after },
      ])
    }
  }
  return statementEntryPage(db, statement.tenantId, statement.currency, statement, after, args.first, statement.precision)
}

function tenantOf(principal: Principal, requested: string | undefined): string {
  if (requested === undefined) return principal.tenantId
  assertTenantAccess(principal, requested)
  return requested
}

/** The caller's tenant's statement (admins: another tenant's with `tenant_id`); `location` is where its input came from. */
export async function accountStatement(ctx: RequestContext, currency: string, input: unknown, location: Location = 'query'): Promise<Statement> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  // The resource first: an unknown currency is 404 whatever the query (as the other account routes).
  await currencyPrecision(ctx.services.db, currency)
  const query = parseInput(statementQuery, input, location)
  return openStatement(ctx.services.db, tenantOf(principal, query.tenant_id), currency, query)
}

/** The operator CLI's `account statement`: any tenant, and the form to write. */
export async function cliStatement(db: Db, input: { tenant_id?: string; currency?: string; from?: string; to?: string; format?: string }) {
  const parsed = parseInput(statementCliInput, input, 'body')
  return { statement: await openStatement(db, parsed.tenant_id, parsed.currency, parsed), format: parsed.format as StatementFormat }
}
