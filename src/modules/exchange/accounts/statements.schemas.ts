import { z } from 'zod'

import { intParam } from '../../../core/lists.ts'
import { decimalString, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { customIssue, isoDateTime } from '../../../core/validation.ts'
import { ledgerEntrySchema, MAX_CURRENCY_LENGTH } from './accounts.schemas.ts'

/** A statement's fields (docs/api.md, "Statements"), in order. */
export const STATEMENT_FIELDS = [
  'tenant_id',
  'currency',
  'from',
  'to',
  'opening_balance',
  'closing_balance',
  'total_credits',
  'total_debits',
  'entry_count',
  'entries',
] as const
/** The CSV form's header row: one column per field of an entry, in this order. */
export const STATEMENT_CSV_COLUMNS = ['created_at', 'uid', 'kind', 'amount', 'balance_after', 'order_uid', 'trade_uid', 'reference'] as const
export const STATEMENT_FORMATS = ['json', 'csv', 'camt053'] as const
export type StatementFormat = (typeof STATEMENT_FORMATS)[number]

/** The longest period one statement covers: a (leap) year. */
export const MAX_STATEMENT_DAYS = 366
const DAY_MS = 86_400_000

/** GraphQL answers the entries in pages (a list field is bounded: docs/operations.md, "Abuse limits"). */
export const MAX_STATEMENT_PAGE = 1000

const periodShape = {
  from: isoDateTime.meta({ description: 'Start of the period, included: ISO 8601 with a time and a zone (`Z` or `±hh:mm`).', example: '2026-11-01T00:00:00Z' }),
  to: isoDateTime.meta({
    description: 'End of the period, excluded: after `from`, at most 366 days later (ISO 8601 with a zone).',
    example: '2026-12-01T00:00:00Z',
  }),
}

/** `from` < `to` ≤ `from` + 366 days, both already UTC timestamps (`toUtcTimestamp`). */
function checkPeriod(period: { from: string; to: string }, ctx: Parameters<Parameters<z.ZodType['superRefine']>[0]>[1]): void {
  if (period.to <= period.from) {
    customIssue(ctx, {
      path: ['to'],
      type: 'value_error.date_range',
      msg: 'to must be after from',
      input: period.to,
      ctx: { from: period.from.replace(' ', 'T') },
    })
    return
  }
  // The latest `to`: `from` plus whole days, its microseconds kept; both texts are fixed-width UTC.
  const latest = new Date(Date.parse(`${period.from.slice(0, 19).replace(' ', 'T')}Z`) + MAX_STATEMENT_DAYS * DAY_MS).toISOString()
  if (period.to > `${latest.slice(0, 10)} ${latest.slice(11, 19)}${period.from.slice(19)}`) {
    customIssue(ctx, {
      path: ['to'],
      type: 'value_error.date_range',
      msg: `a statement covers at most ${MAX_STATEMENT_DAYS} days`,
      input: period.to,
      ctx: { max_days: MAX_STATEMENT_DAYS },
    })
  }
}

/** `GET /api/exchange/v1/accounts/<CODE>/statement`: the period, and (admins) the tenant. */
export const statementQuery = z
  .strictObject({
    ...periodShape,
    tenant_id: z.uuid().optional().meta({ description: "Admins only: another tenant's." }),
  })
  .superRefine(checkPeriod)
export type StatementQuery = z.infer<typeof statementQuery>

/** GraphQL's `AccountStatement.entries`: a page of at most MAX_STATEMENT_PAGE, after an entry of the statement. */
export const statementPageArgs = z.strictObject({
  first: intParam(1, MAX_STATEMENT_PAGE, MAX_STATEMENT_PAGE, `Entries to answer, 1 to ${MAX_STATEMENT_PAGE}.`),
  after: z.uuid().optional(),
})

/** What the CLI's `account statement` takes (its flags; `--tenant` is the tenant). */
export const statementCliInput = z
  .strictObject({
    ...periodShape,
    tenant_id: z.uuid(),
    currency: z.string().min(1).max(MAX_CURRENCY_LENGTH),
    format: z.enum(STATEMENT_FORMATS).default('json'),
  })
  .superRefine(checkPeriod)

// --- Answers (docs/contracts.md) ---

const amount = (description: string) => decimalString.meta({ description: `${description} At the currency's precision.` })

export const statementSchema = z
  .object({
    tenant_id: uuidText,
    currency: z.string().meta({ example: 'USD' }),
    from: timestampText.meta({ description: 'The period’s start (included), UTC.' }),
    to: timestampText.meta({ description: 'The period’s end (excluded), UTC.' }),
    opening_balance: amount('The balance at `from`: every entry before it.'),
    closing_balance: amount('The balance at `to`: opening + credits − debits.'),
    total_credits: amount('The sum of the period’s positive entries.'),
    total_debits: amount('The sum of the period’s negative entries, as a positive amount.'),
    entry_count: z.number().int().min(0),
    entries: z.array(ledgerEntrySchema).meta({ description: 'Every entry of the period, oldest first (ties by `uid`).' }),
  })
  .meta({ id: 'Statement' })

export const statementCsvText = z.string().meta({
  description: `RFC 4180 CSV (CRLF line ends): the header row \`${STATEMENT_CSV_COLUMNS.join(',')}\`, then one row per entry, oldest first.`,
  example: 'created_at,uid,kind,amount,balance_after,order_uid,trade_uid,reference\r\n2026-11-02T09:00:00.000000,0193…,deposit,1000.00,1000.00,,,wire-1\r\n',
})

export const statementXmlText = z.string().meta({
  description:
    'An ISO 20022 `camt.053.001.08` BankToCustomerStatement: `Stmt/Acct/Ccy`, `Bal` with `OPBD` and `CLBD`, `TxsSummry`, one `Ntry` per entry (`Amt@Ccy`, `CdtDbtInd`, `BookgDt`, `AcctSvcrRef` = the entry’s `uid`).',
  example: '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>…</BkToCstmrStmt></Document>',
})
