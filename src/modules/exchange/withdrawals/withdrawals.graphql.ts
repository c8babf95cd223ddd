import type { Page } from '../../../core/lists.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { createDestination, listDestinations } from './destinations.ts'
import { type DestinationRecord, destinationRecord, type WithdrawalRecord, withdrawalRecord } from './withdrawal-records.ts'
import type { DestinationRow, WithdrawalRow } from './withdrawals.repository.ts'
import { DESTINATION_ORDERABLE, WITHDRAWAL_ORDERABLE, WITHDRAWAL_STATUSES } from './withdrawals.schemas.ts'
import { approveWithdrawal, cancelWithdrawal, getWithdrawal, listWithdrawals, rejectWithdrawal, requestWithdrawal } from './withdrawals.ts'

/**
 * The same operations as the REST routes (docs/api.md, "Withdrawals"); the types are over the
 * records REST renders, so a `withdrawal` event's record serves as it is.
 */

const WithdrawalStatus = builder.enumType('WithdrawalStatus', {
  values: WITHDRAWAL_STATUSES,
  description: 'pending (its amount held), then completed (paid out), rejected (by an admin) or cancelled (by the bank).',
})

export const Destination = builder.objectRef<DestinationRecord>('Destination').implement({
  description: "An account a tenant's withdrawals in one currency may be paid to.",
  fields: (t) => ({
    uid: t.exposeID('uid'),
    tenantId: t.exposeID('tenant_id'),
    currency: t.exposeString('currency'),
    label: t.exposeString('label'),
    iban: t.exposeString('iban', { description: 'Upper case, without spaces.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.created_at }),
  }),
})

const WithdrawalApproval = builder.objectRef<WithdrawalRecord['approvals'][number]>('WithdrawalApproval').implement({
  fields: (t) => ({
    clientId: t.exposeID('client_id', { description: 'The admin client that approved.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.created_at }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
})

export const Withdrawal = builder.objectRef<WithdrawalRecord>('Withdrawal').implement({
  description: "Money a bank asked to pay out to one of its destinations, held while pending; two approvals at or above the currency's threshold.",
  fields: (t) => ({
    uid: t.exposeID('uid'),
    tenantId: t.exposeID('tenant_id'),
    currency: t.exposeString('currency'),
    amount: t.field({ type: 'Decimal', description: "At the currency's precision.", resolve: (w) => w.amount }),
    destinationUid: t.exposeID('destination_uid'),
    reference: t.exposeString('reference'),
    status: t.expose('status', { type: WithdrawalStatus }),
    approvals: t.field({ type: [WithdrawalApproval], resolve: (w) => w.approvals }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => w.created_at }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => w.updated_at }),
    decidedAt: t.field({ type: 'DateTime', nullable: true, description: 'Null while pending.', resolve: (w) => w.decided_at }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it was rejected; null otherwise.' }),
  }),
})

const DestinationPage = builder.objectRef<Page<DestinationRow>>('DestinationPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Destination], resolve: (page) => page.rows.map(destinationRecord) }),
    total: t.exposeInt('total', { description: 'All destinations matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const WithdrawalPage = builder.objectRef<Page<WithdrawalRow>>('WithdrawalPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Withdrawal], resolve: (page) => page.rows.map(withdrawalRecord) }),
    total: t.exposeInt('total', { description: 'All withdrawals matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const tenantFilter = "Admins only: one tenant's (without it, every tenant's)."

const DestinationFilter = builder.inputType('DestinationFilter', {
  fields: (t) => ({
    currency: t.string(),
    tenantId: t.id({ description: tenantFilter }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
  }),
})

const WithdrawalFilter = builder.inputType('WithdrawalFilter', {
  fields: (t) => ({
    status: t.field({ type: WithdrawalStatus }),
    currency: t.string(),
    tenantId: t.id({ description: tenantFilter }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
    updatedAtFrom: t.field({ type: 'DateTime' }),
    updatedAtTo: t.field({ type: 'DateTime' }),
  }),
})

const DestinationOrderBy = orderByInput('Destination', DESTINATION_ORDERABLE)
const WithdrawalOrderBy = orderByInput('Withdrawal', WITHDRAWAL_ORDERABLE)

builder.queryField('destinations', (t) =>
  t.field({
    type: DestinationPage,
    description: "Requires accounts:read. The caller's tenant's destinations (admins: every tenant's). Same rules as GET /api/exchange/v1/destinations.",
    args: { filter: t.arg({ type: DestinationFilter }), offset: t.arg.int(), limit: t.arg.int(), orderBy: t.arg({ type: DestinationOrderBy }) },
    resolve: (_root, args, ctx) => listDestinations(ctx, listQueryFromArgs(args)),
  }),
)

builder.queryField('withdrawals', (t) =>
  t.field({
    type: WithdrawalPage,
    description: "Requires accounts:read. The caller's tenant's withdrawals (admins: every tenant's). Same rules as GET /api/exchange/v1/withdrawals.",
    args: { filter: t.arg({ type: WithdrawalFilter }), offset: t.arg.int(), limit: t.arg.int(), orderBy: t.arg({ type: WithdrawalOrderBy }) },
    resolve: (_root, args, ctx) => listWithdrawals(ctx, listQueryFromArgs(args)),
  }),
)

builder.queryField('withdrawal', (t) =>
  t.field({
    type: Withdrawal,
    nullable: true,
    description: "Requires accounts:read. One withdrawal of the caller's tenant (admins: any); null for an unknown uid.",
    args: { uid: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const row = await nullIfNotFound(getWithdrawal(ctx, String(args.uid)))
      return row && withdrawalRecord(row)
    },
  }),
)

const DestinationInput = builder.inputType('DestinationInput', {
  fields: (t) => ({
    tenantId: t.id({ required: true }),
    currency: t.string({ required: true }),
    label: t.string({ required: true }),
    iban: t.string({ required: true, description: 'An IBAN (ISO 13616, mod-97) or an Iranian Sheba (IR and 24 digits).' }),
  }),
})

builder.mutationField('createDestination', (t) =>
  t.field({
    type: Destination,
    description: 'Admins with accounts:write. Same rules and errors as POST /api/exchange/v1/destinations (BAD_USER_INPUT value_error.iban).',
    args: { input: t.arg({ type: DestinationInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      destinationRecord(
        await createDestination(ctx, () => ({ tenant_id: String(input.tenantId), currency: input.currency, label: input.label, iban: input.iban })),
      ),
  }),
)

const WithdrawalInput = builder.inputType('WithdrawalInput', {
  fields: (t) => ({
    currency: t.string({ required: true }),
    amount: t.field({ type: 'Decimal', required: true, description: "Positive, with at most the currency's precision of places." }),
    destinationUid: t.id({ required: true }),
    reference: t.string({ required: true, description: 'Unique per tenant: the same request again returns the first withdrawal.' }),
  }),
})

const WithdrawalPayload = builder.objectRef<{ withdrawal: WithdrawalRecord; created: boolean }>('WithdrawalPayload').implement({
  fields: (t) => ({
    withdrawal: t.field({ type: Withdrawal, resolve: (p) => p.withdrawal }),
    created: t.exposeBoolean('created', { description: 'False when reference named the same withdrawal asked for before (REST: 200, not 201).' }),
  }),
})

builder.mutationField('requestWithdrawal', (t) =>
  t.field({
    type: WithdrawalPayload,
    description:
      'Requires accounts:withdraw. Same rules and errors as POST /api/exchange/v1/withdrawals (CONFLICT for a reference used for a different withdrawal; BAD_USER_INPUT value_error.destination, value_error.withdrawal_limit, value_error.insufficient_balance).',
    args: { input: t.arg({ type: WithdrawalInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { withdrawal, created } = await requestWithdrawal(ctx, () => ({
        currency: input.currency,
        amount: input.amount,
        destination_uid: String(input.destinationUid),
        reference: input.reference,
      }))
      return { withdrawal: withdrawalRecord(withdrawal), created }
    },
  }),
)

const uidArg = { description: "The withdrawal's uid." }

builder.mutationField('approveWithdrawal', (t) =>
  t.field({
    type: Withdrawal,
    description:
      'Admins with accounts:write. Same rules and errors as POST /api/exchange/v1/withdrawals/<uid>/approve (FORBIDDEN for the requesting client, CONFLICT for a second approval by the same admin or a withdrawal no longer pending).',
    args: { uid: t.arg.id({ required: true, ...uidArg }), reason: t.arg.string() },
    resolve: async (_root, args, ctx) =>
      withdrawalRecord(await approveWithdrawal(ctx, String(args.uid), () => (args.reason == null ? {} : { reason: args.reason }))),
  }),
)

builder.mutationField('rejectWithdrawal', (t) =>
  t.field({
    type: Withdrawal,
    description: 'Admins with accounts:write. Same rules and errors as POST /api/exchange/v1/withdrawals/<uid>/reject.',
    args: { uid: t.arg.id({ required: true, ...uidArg }), reason: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => withdrawalRecord(await rejectWithdrawal(ctx, String(args.uid), () => ({ reason: args.reason }))),
  }),
)

builder.mutationField('cancelWithdrawal', (t) =>
  t.field({
    type: Withdrawal,
    description: "Requires accounts:withdraw. Takes back the caller's tenant's pending withdrawal; same rules as DELETE /api/exchange/v1/withdrawals/<uid>.",
    args: { uid: t.arg.id({ required: true, ...uidArg }) },
    resolve: async (_root, args, ctx) => withdrawalRecord(await cancelWithdrawal(ctx, String(args.uid))),
  }),
)
