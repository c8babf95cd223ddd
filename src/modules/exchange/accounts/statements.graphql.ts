import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { LedgerEntry } from './accounts.graphql.ts'
import { MAX_STATEMENT_PAGE } from './statements.schemas.ts'
import { accountStatement, type Statement, statementEntries, statementHead } from './statements.ts'

/** GET /api/exchange/v1/accounts/<CODE>/statement as a field (docs/api.md, "Statements"): the same figures, the entries in pages. */
const AccountStatement = builder.objectRef<Statement>('AccountStatement').implement({
  description: "One account's statement over [from, to): the balance at each end, the period's credits and debits, and its entries.",
  fields: (t) => ({
    tenantId: t.field({ type: 'ID', resolve: (s) => s.tenantId }),
    currency: t.field({ type: 'String', resolve: (s) => s.currency }),
    from: t.field({ type: 'DateTime', resolve: (s) => statementHead(s).from }),
    to: t.field({ type: 'DateTime', resolve: (s) => statementHead(s).to }),
    openingBalance: t.field({ type: 'Decimal', description: 'The balance at from.', resolve: (s) => statementHead(s).opening_balance }),
    closingBalance: t.field({
      type: 'Decimal',
      description: 'The balance at to: opening + credits − debits.',
      resolve: (s) => statementHead(s).closing_balance,
    }),
    totalCredits: t.field({ type: 'Decimal', resolve: (s) => statementHead(s).total_credits }),
    totalDebits: t.field({ type: 'Decimal', description: 'A positive amount.', resolve: (s) => statementHead(s).total_debits }),
    entryCount: t.field({ type: 'Int', description: 'All entries of the period, not only the page answered.', resolve: (s) => statementHead(s).entry_count }),
    entries: t.field({
      type: [LedgerEntry],
      description: `The period's entries, oldest first: the first \`first\` (1 to ${MAX_STATEMENT_PAGE}, default ${MAX_STATEMENT_PAGE}) after the entry \`after\` (its uid; the last of the previous page). REST streams all of them in one answer.`,
      args: { first: t.arg.int(), after: t.arg.id() },
      resolve: (s, args, ctx) =>
        statementEntries(ctx.services.db, s, {
          ...(args.first == null ? {} : { first: String(args.first) }),
          ...(args.after == null ? {} : { after: String(args.after) }),
        }),
    }),
  }),
})

builder.queryField('accountStatement', (t) =>
  t.field({
    type: AccountStatement,
    nullable: true,
    description:
      "Requires accounts:read. The caller's tenant's statement in one currency (admins: another tenant's with tenantId); null for an unknown currency. Same rules as GET /api/exchange/v1/accounts/<CODE>/statement: from and to are required.",
    args: {
      currency: t.arg.string({ required: true }),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
      tenantId: t.arg.id({ description: "Admins only: another tenant's." }),
    },
    resolve: (_root, args, ctx) => {
      const query: Record<string, string> = {}
      if (args.from != null) query.from = String(args.from)
      if (args.to != null) query.to = String(args.to)
      if (args.tenantId != null) query.tenant_id = String(args.tenantId)
      return nullIfNotFound(accountStatement(ctx, args.currency, query))
    },
  }),
)
