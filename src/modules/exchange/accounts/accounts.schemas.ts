import { z } from 'zod'

import { intParam, listQuerySchema, MAX_LIMIT } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'

/** An account record's fields (docs/api.md, "Accounts"), in order. */
export const ACCOUNT_FIELDS = ['currency', 'balance', 'hold', 'available', 'updated_at'] as const
/** A ledger entry's fields, in order. */
export const LEDGER_FIELDS = ['uid', 'created_at', 'tenant_id', 'currency', 'amount', 'balance_after', 'kind', 'order_uid', 'trade_uid', 'reference'] as const
export const LEDGER_KINDS = ['deposit', 'withdrawal', 'trade', 'fee'] as const
export const TRANSFER_KINDS = ['deposit', 'withdrawal'] as const
export const LEDGER_ORDERABLE = ['created_at', 'currency', 'kind', 'amount'] as const

export const MAX_CURRENCY_LENGTH = 16
export const MAX_REFERENCE_LENGTH = 200

/** Currency codes are upper case; `usd` names USD. */
export const currencyCode = z.string().min(1).max(MAX_CURRENCY_LENGTH, { abort: true }).toUpperCase().meta({ example: 'USD' })

const tenantId = z.uuid().optional().meta({ description: "Admins only: another tenant's." })

/** `GET /api/exchange/v1/accounts`: a tenant's accounts by currency. */
export const accountListQuery = z.strictObject({
  offset: intParam(0, undefined, 0, 'Records to skip.'),
  limit: intParam(1, MAX_LIMIT, MAX_LIMIT, 'Records per page, at most 100.'),
  tenant_id: tenantId,
})
export type AccountListQuery = z.infer<typeof accountListQuery>

export const accountQuery = z.strictObject({ tenant_id: tenantId })

export const accountParams = z.object({
  currency: z.string().meta({ description: 'A currency code (case-insensitive).', example: 'USD' }),
})

/** Entries never change: no `updated_at`, nor its filters. */
export const ledgerListQuery = listQuerySchema(
  {
    currency: currencyCode.optional().meta({ description: 'One currency, case-insensitive.', example: 'USD' }),
    kind: z.enum(LEDGER_KINDS).optional(),
    order_uid: z.uuid().optional().meta({ description: "One order's trade and fee entries." }),
    tenant_id: z.uuid().optional().meta({ description: "Admins only: one tenant's entries (without it, every tenant's)." }),
  },
  LEDGER_ORDERABLE,
).omit({ updated_at_from: true, updated_at_to: true })
export type LedgerListQuery = z.infer<typeof ledgerListQuery>

/** A positive amount as text: its places are checked against the currency's precision by the operation. */
const amountText = z
  .string()
  .max(64, { abort: true })
  .regex(/^\d+(\.\d+)?$/, 'amount must be a positive decimal written as text')
  .meta({ description: "A positive decimal as text, with at most the currency's precision of places.", example: '1000.00' })

/** `POST /api/exchange/v1/transfers` (admins): a deposit or a withdrawal, idempotent by `reference`. */
export const transferBody = z
  .strictObject({
    tenant_id: z.uuid(),
    currency: currencyCode,
    amount: amountText,
    kind: z.enum(TRANSFER_KINDS),
    reference: z
      .string()
      .min(1)
      .max(MAX_REFERENCE_LENGTH, { abort: true })
      .meta({ description: 'Unique per tenant: sending the same transfer again answers the entry made the first time.', example: 'wire-2026-12-04-0001' }),
  })
  .meta({ id: 'TransferInput' })
export type TransferBody = z.infer<typeof transferBody>

// --- Answers (docs/contracts.md) ---

const amountAtPrecision = (description: string) => decimalString.meta({ description: `${description} At the currency's precision.` })

export const accountRecordSchema = z
  .object({
    currency: z.string().meta({ example: 'USD' }),
    balance: amountAtPrecision('What the tenant holds at the exchange center.'),
    hold: amountAtPrecision('What its open orders hold of the balance.'),
    available: amountAtPrecision('`balance − hold`: what new orders and withdrawals may use.'),
    updated_at: timestampText.nullable().meta({ description: 'The last change; null for an account never used.' }),
  })
  .meta({ id: 'Account', example: { currency: 'USD', balance: '1500.00', hold: '250.00', available: '1250.00', updated_at: '2026-12-04T09:30:00.123456' } })

export const ledgerEntrySchema = z
  .object({
    uid: uuidText,
    created_at: timestampText,
    tenant_id: uuidText,
    currency: z.string().meta({ example: 'USD' }),
    amount: amountAtPrecision('Signed: credits are positive, debits negative.'),
    balance_after: amountAtPrecision("The account's balance after this entry."),
    kind: z.enum(LEDGER_KINDS).meta({ description: '`deposit`, `withdrawal` (transfers), `trade` (a fill), `fee` (the fee of a fill).' }),
    order_uid: uuidText.nullable().meta({ description: 'The order of a `trade` or `fee` entry; null for transfers.' }),
    trade_uid: uuidText.nullable().meta({ description: 'The trade of a `trade` or `fee` entry; null for transfers.' }),
    reference: z.string().nullable().meta({ description: "A transfer's reference; null for trades and fees." }),
  })
  .meta({ id: 'LedgerEntry' })

export const accountListSchema = listEnvelopeSchema('AccountList', accountRecordSchema, ACCOUNT_FIELDS)
export const ledgerListSchema = listEnvelopeSchema('LedgerEntryList', ledgerEntrySchema, LEDGER_FIELDS)

/** The `ctx` of a 422 `value_error.insufficient_balance`. */
export const insufficientBalanceExample = {
  detail: [
    {
      type: 'value_error.insufficient_balance',
      loc: ['body', 'amount'],
      msg: 'insufficient balance: USD available 250.00, required 1000.00',
      input: '1000.00',
      ctx: { currency: 'USD', available: '250.00', required: '1000.00' },
    },
  ],
}
