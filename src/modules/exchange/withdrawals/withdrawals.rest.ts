import { validationErrorBody } from '../../../http/api-contract.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { ACCOUNTS_READ, ACCOUNTS_WRITE } from '../accounts/accounts.ts'
import { createDestination, listDestinations } from './destinations.ts'
import { destinationEnvelope, destinationRecord, withdrawalEnvelope, withdrawalRecord } from './withdrawal-records.ts'
import {
  approveBody,
  destinationBody,
  destinationListQuery,
  destinationListSchema,
  destinationRecordSchema,
  rejectBody,
  withdrawalBody,
  withdrawalListQuery,
  withdrawalListSchema,
  withdrawalParams,
  withdrawalRecordSchema,
} from './withdrawals.schemas.ts'
import { ACCOUNTS_WITHDRAW, approveWithdrawal, cancelWithdrawal, getWithdrawal, listWithdrawals, rejectWithdrawal, requestWithdrawal } from './withdrawals.ts'

const EXCHANGE = '/api/exchange/v1'
const WITHDRAWALS = `${EXCHANGE}/withdrawals`

const limitExample = {
  detail: [
    {
      type: 'value_error.withdrawal_limit',
      loc: ['body', 'amount'],
      msg: 'daily withdrawal limit exceeded: IRR limit 1000000000, used today 800000000',
      input: '250000000',
      ctx: { limit: '1000000000', used: '800000000' },
    },
  ],
}

const moved = (what: string) => ({ 200: { description: what, body: withdrawalRecordSchema } })

export const withdrawalRoutes: DocumentedRoute[] = [
  {
    method: 'POST',
    path: `${EXCHANGE}/destinations`,
    handler: async ({ ctx, body }) => ({ status: 201, body: destinationRecord(await createDestination(ctx, body)) }),
    doc: {
      operationId: 'createDestination',
      summary: 'Register a destination',
      description:
        "Admins only (role `admin`). Registers an account a tenant's withdrawals in one currency may be paid to. `iban` must be an IBAN (ISO 13616, mod-97) or an Iranian Sheba (`IR` and 24 digits), else 422 `value_error.iban`.",
      tag: 'exchange',
      scope: ACCOUNTS_WRITE,
      body: destinationBody,
      responses: { 201: { description: 'Registered', body: destinationRecordSchema } },
      errors: { forbidden: 'The caller is not an admin' },
    },
  },
  {
    method: 'GET',
    path: `${EXCHANGE}/destinations`,
    handler: async ({ ctx, query }) => ({ body: destinationEnvelope(await listDestinations(ctx, query)) }),
    doc: {
      operationId: 'listDestinations',
      summary: 'List destinations',
      description: "Your tenant's destinations (admins: every tenant's, or one's with `tenant_id`).",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      query: destinationListQuery,
      responses: { 200: { description: 'One page of destinations', body: destinationListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant' },
    },
  },
  {
    method: 'POST',
    path: WITHDRAWALS,
    handler: async ({ ctx, body }) => {
      const { withdrawal, created } = await requestWithdrawal(ctx, body)
      return { status: created ? 201 : 200, body: withdrawalRecord(withdrawal) }
    },
    doc: {
      operationId: 'requestWithdrawal',
      summary: 'Request a withdrawal',
      description:
        "Asks to pay `amount` out to one of your tenant's destinations in that currency. The amount is held at once (available drops, hold rises) until an admin approves (it is paid: a `withdrawal` ledger entry), rejects it or you cancel it. `reference` is unique per tenant: the same request again answers the first withdrawal (200), never a second hold.",
      tag: 'exchange',
      scope: ACCOUNTS_WITHDRAW,
      body: withdrawalBody,
      responses: {
        201: { description: 'Requested: pending, its amount held', body: withdrawalRecordSchema },
        200: { description: 'A retry: `reference` names the same withdrawal asked for before, which is answered', body: withdrawalRecordSchema },
        422: {
          description:
            "Validation failed: every rule broken, in field order; `value_error.destination` (not one of your tenant's destinations in this currency), then `value_error.withdrawal_limit` (ctx `limit`, `used`: over the tenant's daily limit in the currency) or `value_error.insufficient_balance`",
          body: validationErrorBody,
          examples: { withdrawal_limit: { summary: 'Over the daily limit', value: limitExample } },
        },
      },
      errors: { conflict: '`reference` names a different withdrawal of your tenant' },
    },
  },
  {
    method: 'GET',
    path: WITHDRAWALS,
    handler: async ({ ctx, query }) => ({ body: withdrawalEnvelope(await listWithdrawals(ctx, query)) }),
    doc: {
      operationId: 'listWithdrawals',
      summary: 'List withdrawals',
      description: "Your tenant's withdrawals, optionally of one `status` or `currency` (admins: every tenant's, or one's with `tenant_id`).",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      query: withdrawalListQuery,
      responses: { 200: { description: 'One page of withdrawals', body: withdrawalListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant' },
    },
  },
  {
    method: 'GET',
    path: `${WITHDRAWALS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: withdrawalRecord(await getWithdrawal(ctx, params.uid!)) }),
    doc: {
      operationId: 'getWithdrawal',
      summary: 'One withdrawal',
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      params: withdrawalParams,
      responses: moved('The withdrawal'),
      errors: { forbidden: "Another tenant's withdrawal (admins may read any)", not_found: 'No withdrawal has this uid' },
    },
  },
  {
    method: 'DELETE',
    path: `${WITHDRAWALS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: withdrawalRecord(await cancelWithdrawal(ctx, params.uid!)) }),
    doc: {
      operationId: 'cancelWithdrawal',
      summary: 'Cancel a withdrawal',
      description: "Takes back your tenant's pending withdrawal: its hold is released.",
      tag: 'exchange',
      scope: ACCOUNTS_WITHDRAW,
      params: withdrawalParams,
      responses: moved('The cancelled withdrawal'),
      errors: {
        forbidden: "Another tenant's withdrawal (admins too)",
        not_found: 'No withdrawal has this uid',
        conflict: 'The withdrawal is no longer pending',
      },
    },
  },
  {
    method: 'POST',
    path: `${WITHDRAWALS}/:uid/approve`,
    handler: async ({ ctx, params, body }) => ({ body: withdrawalRecord(await approveWithdrawal(ctx, params.uid!, body)) }),
    doc: {
      operationId: 'approveWithdrawal',
      summary: 'Approve a withdrawal',
      description:
        "Admins only (role `admin`). One approval pays a withdrawal out (`completed`: the `withdrawal` ledger entry, the hold released, in one transaction); at or above the currency's approval threshold two approvals by two different admin clients are needed, the first leaving it `pending`. The client that requested it can never approve it (403).",
      tag: 'exchange',
      scope: ACCOUNTS_WRITE,
      params: withdrawalParams,
      body: approveBody,
      responses: moved('The withdrawal with this approval: `completed`, or `pending` awaiting a second approval'),
      errors: {
        forbidden: 'The caller is not an admin, or is the client that requested the withdrawal',
        not_found: 'No withdrawal has this uid',
        conflict: 'The withdrawal is no longer pending, or this client already approved it',
      },
    },
  },
  {
    method: 'POST',
    path: `${WITHDRAWALS}/:uid/reject`,
    handler: async ({ ctx, params, body }) => ({ body: withdrawalRecord(await rejectWithdrawal(ctx, params.uid!, body)) }),
    doc: {
      operationId: 'rejectWithdrawal',
      summary: 'Reject a withdrawal',
      description: 'Admins only (role `admin`). Refuses a pending withdrawal: its hold is released and `reason` kept.',
      tag: 'exchange',
      scope: ACCOUNTS_WRITE,
      params: withdrawalParams,
      body: rejectBody,
      responses: moved('The rejected withdrawal'),
      errors: { forbidden: 'The caller is not an admin', not_found: 'No withdrawal has this uid', conflict: 'The withdrawal is no longer pending' },
    },
  },
]
