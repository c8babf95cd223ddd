import type { Page } from '../../../core/lists.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { accountRecord, ledgerEntryRecord } from './account-records.ts'
import type { AccountRow, LedgerEntryRow } from './accounts.repository.ts'
import { LEDGER_KINDS, LEDGER_ORDERABLE, TRANSFER_KINDS } from './accounts.schemas.ts'
import { createTransfer, getAccount, listAccounts, listLedger } from './accounts.ts'

/** The same records as REST (docs/accounts.md): decimals at the currency's precision. */

const LedgerKind = builder.enumType('LedgerKind', {
  values: LEDGER_KINDS,
  description: 'deposit and withdrawal: transfers by the exchange center; trade: a fill; fee: the fee of a fill.',
})
const TransferKind = builder.enumType('TransferKind', { values: TRANSFER_KINDS })

export const Account = builder.objectRef<AccountRow>('Account').implement({
  description: "A tenant's money in one currency at the exchange center.",
  fields: (t) => ({
    currency: t.exposeString('currency'),
    balance: t.field({ type: 'Decimal', resolve: (a) => accountRecord(a).balance }),
    hold: t.field({ type: 'Decimal', description: 'What its open orders hold of the balance.', resolve: (a) => accountRecord(a).hold }),
    available: t.field({ type: 'Decimal', description: 'balance − hold.', resolve: (a) => accountRecord(a).available }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'Null for an account never used.', resolve: (a) => accountRecord(a).updated_at }),
  }),
})

export const LedgerEntry = builder.objectRef<LedgerEntryRow>('LedgerEntry').implement({
  description: 'One change of a balance, never edited or deleted.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => ledgerEntryRecord(e).created_at }),
    tenantId: t.exposeID('tenant_id'),
    currency: t.exposeString('currency'),
    amount: t.field({ type: 'Decimal', description: 'Signed: credits positive, debits negative.', resolve: (e) => ledgerEntryRecord(e).amount }),
    balanceAfter: t.field({ type: 'Decimal', resolve: (e) => ledgerEntryRecord(e).balance_after }),
    kind: t.expose('kind', { type: LedgerKind }),
    orderUid: t.exposeID('order_uid', { nullable: true }),
    tradeUid: t.exposeID('trade_uid', { nullable: true }),
    reference: t.exposeString('reference', { nullable: true }),
  }),
})

const AccountPage = builder.objectRef<Page<AccountRow>>('AccountPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Account], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All accounts of the tenant, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const LedgerPage = builder.objectRef<Page<LedgerEntryRow>>('LedgerPage').implement({
  fields: (t) => ({
    items: t.field({ type: [LedgerEntry], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All entries matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const LedgerFilter = builder.inputType('LedgerFilter', {
  fields: (t) => ({
    currency: t.string(),
    kind: t.field({ type: LedgerKind }),
    orderUid: t.id(),
    tenantId: t.id({ description: "Another tenant's id is allowed for admins only." }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
  }),
})

const LedgerOrderBy = orderByInput('LedgerEntry', LEDGER_ORDERABLE)

const tenantArg = "Admins only: another tenant's."

builder.queryField('accounts', (t) =>
  t.field({
    type: AccountPage,
    description: "Requires accounts:read. The caller's tenant's accounts by currency. Same rules as GET /api/exchange/v1/accounts.",
    args: { tenantId: t.arg.id({ description: tenantArg }), offset: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => listAccounts(ctx, listQueryFromArgs({ filter: { tenantId: args.tenantId }, offset: args.offset, limit: args.limit })),
  }),
)

builder.queryField('account', (t) =>
  t.field({
    type: Account,
    nullable: true,
    description: 'Requires accounts:read. One account (zeros when never used); null for an unknown currency.',
    args: { currency: t.arg.string({ required: true }), tenantId: t.arg.id({ description: tenantArg }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getAccount(ctx, args.currency, listQueryFromArgs({ filter: { tenantId: args.tenantId } }))),
  }),
)

builder.queryField('ledger', (t) =>
  t.field({
    type: LedgerPage,
    description: "Requires accounts:read. The caller's tenant's ledger (admins: every tenant's). Same rules as GET /api/exchange/v1/ledger.",
    args: {
      filter: t.arg({ type: LedgerFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: LedgerOrderBy }),
    },
    resolve: (_root, args, ctx) => listLedger(ctx, listQueryFromArgs(args)),
  }),
)

const TransferInput = builder.inputType('TransferInput', {
  fields: (t) => ({
    tenantId: t.id({ required: true }),
    currency: t.string({ required: true }),
    amount: t.field({ type: 'Decimal', required: true, description: "Positive, with at most the currency's precision of places." }),
    kind: t.field({ type: TransferKind, required: true }),
    reference: t.string({ required: true, description: 'Unique per tenant: the same transfer again returns the first entry.' }),
  }),
})

const TransferPayload = builder.objectRef<{ entry: LedgerEntryRow; created: boolean }>('TransferPayload').implement({
  fields: (t) => ({
    entry: t.field({ type: LedgerEntry, resolve: (p) => p.entry }),
    created: t.exposeBoolean('created', { description: 'False when reference named the same transfer made before (REST: 200, not 201).' }),
  }),
})

builder.mutationField('createTransfer', (t) =>
  t.field({
    type: TransferPayload,
    description:
      'Admins with accounts:write. A deposit or withdrawal; same rules and errors as POST /api/exchange/v1/transfers (CONFLICT for a reference used for a different transfer, BAD_USER_INPUT value_error.insufficient_balance).',
    args: { input: t.arg({ type: TransferInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createTransfer(ctx, () => ({
        tenant_id: String(input.tenantId),
        currency: input.currency,
        amount: input.amount,
        kind: input.kind,
        reference: input.reference,
      })),
  }),
)
