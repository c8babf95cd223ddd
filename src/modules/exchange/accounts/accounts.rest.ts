import { validationErrorBody } from '../../../http/api-contract.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { accountEnvelope, accountRecord, ledgerEntryRecord, ledgerEnvelope } from './account-records.ts'
import {
  accountListQuery,
  accountListSchema,
  accountParams,
  accountQuery,
  accountRecordSchema,
  insufficientBalanceExample,
  ledgerEntrySchema,
  ledgerListQuery,
  ledgerListSchema,
  transferBody,
} from './accounts.schemas.ts'
import { ACCOUNTS_READ, ACCOUNTS_WRITE, createTransfer, getAccount, listAccounts, listLedger } from './accounts.ts'

const EXCHANGE = '/api/exchange/v1'

const deposit = { tenant_id: '5f0c7e4a-3c1b-4a53-9b7e-2f0d6c1a8e44', currency: 'USD', amount: '1000.00', kind: 'deposit', reference: 'wire-2026-12-04-0001' }

export const accountRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: `${EXCHANGE}/accounts`,
    handler: async ({ ctx, query }) => ({ body: accountEnvelope(await listAccounts(ctx, query)) }),
    doc: {
      operationId: 'listAccounts',
      summary: 'List accounts',
      description: "Your tenant's accounts, one per currency it has used, by currency (admins: another tenant's with `tenant_id`).",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      query: accountListQuery,
      responses: { 200: { description: 'One page of accounts', body: accountListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant' },
    },
  },
  {
    method: 'GET',
    path: `${EXCHANGE}/accounts/:currency`,
    handler: async ({ ctx, params, query }) => ({ body: accountRecord(await getAccount(ctx, params.currency!, query)) }),
    doc: {
      operationId: 'getAccount',
      summary: 'One account',
      description: "Your tenant's account in one currency: zeros (and `updated_at` null) when it was never used.",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      params: accountParams,
      query: accountQuery,
      responses: { 200: { description: 'The account', body: accountRecordSchema } },
      errors: { forbidden: '`tenant_id` names another tenant', not_found: 'No currency has this code' },
    },
  },
  {
    method: 'GET',
    path: `${EXCHANGE}/ledger`,
    handler: async ({ ctx, query }) => ({ body: ledgerEnvelope(await listLedger(ctx, query)) }),
    doc: {
      operationId: 'listLedger',
      summary: 'List ledger entries',
      description:
        "Every change of your tenant's balances: deposits, withdrawals, trades and fees, never edited or deleted (admins: every tenant's, or one tenant's with `tenant_id`).",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      query: ledgerListQuery,
      responses: { 200: { description: 'One page of ledger entries', body: ledgerListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant' },
    },
  },
  {
    method: 'POST',
    path: `${EXCHANGE}/transfers`,
    handler: async ({ ctx, body }) => {
      const { entry, created } = await createTransfer(ctx, body)
      return { status: created ? 201 : 200, body: ledgerEntryRecord(entry) }
    },
    doc: {
      operationId: 'createTransfer',
      summary: 'Deposit to or withdraw from an account',
      description:
        "Admins only (role `admin`). Credits (`deposit`) or debits (`withdrawal`) a tenant's account and answers the ledger entry. `reference` is unique per tenant: the same transfer again answers the first entry (200), never a second credit.",
      tag: 'exchange',
      scope: ACCOUNTS_WRITE,
      body: transferBody,
      bodyExamples: {
        deposit: { summary: 'A deposit', value: deposit },
        withdrawal: { summary: 'A withdrawal', value: { ...deposit, kind: 'withdrawal', amount: '250.00', reference: 'payout-2026-12-04-0007' } },
      },
      responses: {
        201: { description: 'Transferred: the new ledger entry', body: ledgerEntrySchema },
        200: { description: 'A retry: `reference` names the same transfer made before, whose entry is answered', body: ledgerEntrySchema },
        422: {
          description:
            'Validation failed: every rule broken, in field order; a withdrawal beyond what is available is `value_error.insufficient_balance` with ctx `currency`, `available`, `required`',
          body: validationErrorBody,
          examples: { insufficient_balance: { summary: 'A withdrawal beyond the available balance', value: insufficientBalanceExample } },
        },
      },
      errors: { forbidden: 'The caller is not an admin', conflict: '`reference` names a different transfer of this tenant' },
    },
  },
]
