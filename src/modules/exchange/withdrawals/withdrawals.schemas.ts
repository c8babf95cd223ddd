import { z } from 'zod'

import { listQuerySchema } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { currencyCode, MAX_REFERENCE_LENGTH } from '../accounts/accounts.schemas.ts'

/** A destination's fields (docs/api.md, "Withdrawals"), in order. */
export const DESTINATION_FIELDS = ['uid', 'tenant_id', 'currency', 'label', 'iban', 'created_at'] as const
export const WITHDRAWAL_FIELDS = [
  'uid',
  'tenant_id',
  'currency',
  'amount',
  'destination_uid',
  'reference',
  'status',
  'approvals',
  'created_at',
  'updated_at',
  'decided_at',
  'reason',
] as const
export const WITHDRAWAL_STATUSES = ['pending', 'completed', 'rejected', 'cancelled'] as const
export const DESTINATION_ORDERABLE = ['created_at', 'currency', 'label'] as const
export const WITHDRAWAL_ORDERABLE = ['created_at', 'updated_at', 'currency', 'amount', 'status'] as const

export const MAX_LABEL_LENGTH = 200
export const MAX_REASON_LENGTH = 500
/** Longer than any IBAN written with spaces (34 characters and 8 spaces): longer text is refused before it is read. */
export const MAX_IBAN_TEXT = 64

const tenantFilter = z.uuid().optional().meta({ description: "Admins only: one tenant's (without it, every tenant's)." })
const currencyFilter = currencyCode.optional().meta({ description: 'One currency, case-insensitive.', example: 'IRR' })

/** `POST /api/exchange/v1/destinations` (admins). */
export const destinationBody = z
  .strictObject({
    tenant_id: z.uuid(),
    currency: currencyCode,
    label: z.string().trim().min(1).max(MAX_LABEL_LENGTH, { abort: true }).meta({ example: 'Operating account at Bank Melli' }),
    iban: z.string().min(1).max(MAX_IBAN_TEXT, { abort: true }).meta({
      description: 'An IBAN (ISO 13616, mod-97 checked; spaces allowed) or an Iranian Sheba: `IR` and 24 digits. Stored upper case without spaces.',
      example: 'IR062960000000100324200001',
    }),
  })
  .meta({ id: 'DestinationInput' })
export type DestinationBody = z.infer<typeof destinationBody>

export const destinationListQuery = listQuerySchema({ currency: currencyFilter, tenant_id: tenantFilter }, DESTINATION_ORDERABLE).omit({
  updated_at_from: true,
  updated_at_to: true,
})
export type DestinationListQuery = z.infer<typeof destinationListQuery>

/** A positive amount as text: its places are checked against the currency's precision by the operation. */
const amountText = z
  .string()
  .max(64, { abort: true })
  .regex(/^\d+(\.\d+)?$/, 'amount must be a positive decimal written as text')
  .meta({ description: "A positive decimal as text, with at most the currency's precision of places.", example: '250000000' })

/** `POST /api/exchange/v1/withdrawals` (banks with `accounts:withdraw`). */
export const withdrawalBody = z
  .strictObject({
    currency: currencyCode,
    amount: amountText,
    destination_uid: z.uuid(),
    reference: z
      .string()
      .min(1)
      .max(MAX_REFERENCE_LENGTH, { abort: true })
      .meta({ description: 'Unique per tenant: the same request again answers the withdrawal made the first time.', example: 'payout-2026-12-09-0001' }),
  })
  .meta({ id: 'WithdrawalInput' })
export type WithdrawalBody = z.infer<typeof withdrawalBody>

const reason = z.string().trim().min(1).max(MAX_REASON_LENGTH, { abort: true })

/** `POST …/withdrawals/<uid>/approve`: a reason is optional. */
export const approveBody = z
  .strictObject({ reason: reason.optional().meta({ example: 'Matches the payout instruction' }) })
  .meta({ id: 'ApproveWithdrawalInput' })
/** `POST …/withdrawals/<uid>/reject`: a reason is required. */
export const rejectBody = z.strictObject({ reason: reason.meta({ example: 'Destination not confirmed by phone' }) }).meta({ id: 'RejectWithdrawalInput' })

export const withdrawalListQuery = listQuerySchema(
  { status: z.enum(WITHDRAWAL_STATUSES).optional(), currency: currencyFilter, tenant_id: tenantFilter },
  WITHDRAWAL_ORDERABLE,
)
export type WithdrawalListQuery = z.infer<typeof withdrawalListQuery>

export const withdrawalParams = z.object({
  uid: z.string().meta({ description: "The withdrawal's uid (a UUID; anything else is 404).", example: '01938a4e-7c1f-7b2a-9d3e-5f6a7b8c9d0e' }),
})

// --- Answers (docs/contracts.md) ---

export const destinationRecordSchema = z
  .object({
    uid: uuidText,
    tenant_id: uuidText,
    currency: z.string().meta({ example: 'IRR' }),
    label: z.string(),
    iban: z.string().meta({ description: 'Upper case, without spaces.', example: 'IR062960000000100324200001' }),
    created_at: timestampText,
  })
  .meta({ id: 'Destination' })

export const approvalSchema = z
  .object({
    client_id: uuidText.meta({ description: 'The admin client that approved.' }),
    created_at: timestampText,
    reason: z.string().nullable(),
  })
  .meta({ id: 'WithdrawalApproval' })

export const withdrawalRecordSchema = z
  .object({
    uid: uuidText,
    tenant_id: uuidText,
    currency: z.string().meta({ example: 'IRR' }),
    amount: decimalString.meta({ description: "At the currency's precision." }),
    destination_uid: uuidText,
    reference: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES).meta({
      description: '`pending` (its amount held), then `completed` (paid out: a `withdrawal` ledger entry), `rejected` or `cancelled` (the hold released).',
    }),
    approvals: z.array(approvalSchema).meta({ description: "In order; two are needed at or above the currency's approval threshold." }),
    created_at: timestampText,
    updated_at: timestampText,
    decided_at: timestampText.nullable().meta({ description: 'When it was completed, rejected or cancelled; null while pending.' }),
    reason: z.string().nullable().meta({ description: 'Why it was rejected; null otherwise.' }),
  })
  .meta({ id: 'Withdrawal' })

export const destinationListSchema = listEnvelopeSchema('DestinationList', destinationRecordSchema, DESTINATION_FIELDS)
export const withdrawalListSchema = listEnvelopeSchema('WithdrawalList', withdrawalRecordSchema, WITHDRAWAL_FIELDS)
