import type { RequestContext } from '../../../core/context.ts'
import type { Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { parseInput } from '../../../core/validation.ts'
import { listQueryFromArgs, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { batchedByArgument } from '../../../graphql/loaders.ts'
import { Order, OrderSideType } from '../orders/orders.graphql.ts'
import { type FillRow, findFillsOfOrders } from './fills.repository.ts'
import { FILL_ORDERABLE, FILL_ROLES, MAX_FILLS_PER_ORDER, orderFillsQuery } from './fills.schemas.ts'
import { listFills } from './fills.ts'

const FillRole = builder.enumType('FillRole', { values: FILL_ROLES, description: 'maker: the order rested in the book; taker: it arrived and traded.' })

export const Fill = builder.objectRef<FillRow>('Fill').implement({
  description: 'One side of a trade, as the tenant of its order sees it.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => formatTimestamp(f.created_at) }),
    orderUid: t.exposeID('order_uid'),
    tradeUid: t.exposeID('trade_uid'),
    symbol: t.exposeString('symbol'),
    side: t.expose('side', { type: OrderSideType }),
    role: t.expose('role', { type: FillRole }),
    price: t.expose('price', { type: 'Decimal', description: "The maker's price." }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    fee: t.expose('fee', { type: 'Decimal', description: 'What the order paid for this fill, in feeCurrency: its `fee` ledger entry negated (0 when none).' }),
    feeCurrency: t.exposeString('fee_currency', { description: "The symbol's quote currency." }),
    liquidity: t.expose('role', { type: FillRole, description: 'maker: paid the maker rate; taker: the taker rate (the same as role).' }),
  }),
})

// Every order of a response in one statement per `limit` (an order may have thousands of fills).
const fillsOfOrders = batchedByArgument(
  (orderUids: readonly string[], ctx: RequestContext, limit: number) => findFillsOfOrders(ctx.services.db, orderUids, limit),
  [] as FillRow[],
)

builder.objectField(Order, 'fills', (t) =>
  t.field({
    type: [Fill],
    description: `The order's fills, oldest first: the first \`limit\` of them (1 to ${MAX_FILLS_PER_ORDER}, default ${MAX_FILLS_PER_ORDER}). All of them add up to filledQuantity; the fills query pages through more.`,
    args: { limit: t.arg.int({ description: `1 to ${MAX_FILLS_PER_ORDER} (default ${MAX_FILLS_PER_ORDER}).` }) },
    resolve: (order, args, ctx) => {
      const { limit } = parseInput(orderFillsQuery, args.limit == null ? {} : { limit: String(args.limit) }, 'query')
      return fillsOfOrders(ctx, limit).load(order.uid)
    },
  }),
)

const FillPage = builder.objectRef<Page<FillRow>>('FillPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Fill], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All fills matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const FillFilter = builder.inputType('FillFilter', {
  fields: (t) => ({
    symbol: t.string(),
    side: t.field({ type: OrderSideType }),
    orderUid: t.id(),
    tenantId: t.id({ description: "Another tenant's id is allowed for admins only." }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
  }),
})

const FillOrderBy = orderByInput('Fill', FILL_ORDERABLE)

builder.queryField('fills', (t) =>
  t.field({
    type: FillPage,
    description: "Requires orders:read. The caller's tenant's fills (admins: every tenant). Same rules as GET /api/exchange/v1/fills.",
    args: {
      filter: t.arg({ type: FillFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: FillOrderBy }),
    },
    resolve: (_root, args, ctx) => listFills(ctx, listQueryFromArgs(args)),
  }),
)
