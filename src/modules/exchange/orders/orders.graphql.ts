import type { Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { SymbolType } from '../symbols/symbols.graphql.ts'
import { SYMBOLS_READ } from '../symbols/symbols.ts'
import type { OrderRow } from './orders.repository.ts'
import { CANCEL_REASONS, ORDER_ORDERABLE, ORDER_SIDES, ORDER_STATUSES, ORDER_TYPES, TIMES_IN_FORCE } from './orders.schemas.ts'
import { amendOrder, cancelOrder, cancelOrders, createOrder, getOrder, listOrders, validateOrder } from './orders.ts'

// Enum values keep the REST spelling, so a value means the same on both faces.
const OrderSide = builder.enumType('OrderSide', { values: ORDER_SIDES })
const OrderType = builder.enumType('OrderType', {
  values: ORDER_TYPES,
  description:
    'A market order is immediate-or-cancel: it trades against the book, and what it could not fill is cancelled (unfilled). stop_limit and stop_market are pending until a trade reaches their stopPrice, then a limit or market order.',
})
const OrderStatus = builder.enumType('OrderStatus', { values: ORDER_STATUSES, description: 'pending: a stop order no trade has triggered yet.' })
export const OrderSideType = OrderSide
const CancelReason = builder.enumType('CancelReason', {
  values: CANCEL_REASONS,
  description:
    'user: cancelled by its owner; unfilled: what an ioc or market order could not fill in its pass, or a fok order that could not fill entirely; self_trade: the next match would have been with its own tenant; post_only: a post-only order that would have traded; deadline: the cancel-after deadline of its tenant passed; expired: a gtd order whose expireAt passed.',
})
const TimeInForce = builder.enumType('TimeInForce', {
  values: TIMES_IN_FORCE,
  description:
    'gtc: rests until filled or cancelled (limit orders by default); ioc: what its pass can fill, the rest cancelled (market orders always); fok: all in its pass, or cancelled with nothing filled; gtd: as gtc until expireAt, then cancelled (expired).',
})

export const Order = builder.objectRef<OrderRow>('Order').implement({
  description: "An order of the caller's tenant.",
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.field({ type: 'DateTime', resolve: (o) => formatTimestamp(o.created_at) }),
    updatedAt: t.field({ type: 'DateTime', resolve: (o) => formatTimestamp(o.updated_at) }),
    isDeleted: t.exposeBoolean('is_deleted'),
    metaData: t.field({ type: 'JSON', nullable: true, resolve: (o) => o.meta_data }),
    userId: t.exposeString('user_id', { description: 'The client that placed the order.' }),
    tenantId: t.exposeID('tenant_id'),
    clientOrderId: t.exposeString('client_order_id', { nullable: true }),
    symbol: t.exposeString('symbol'),
    side: t.expose('side', { type: OrderSide }),
    type: t.expose('type', { type: OrderType }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    price: t.expose('price', { type: 'Decimal', nullable: true, description: 'Null for market and stop_market orders.' }),
    status: t.expose('status', { type: OrderStatus }),
    filledQuantity: t.expose('filled_quantity', { type: 'Decimal', description: 'The sum of its fills.' }),
    averagePrice: t.expose('average_price', { type: 'Decimal', nullable: true, description: 'The quantity-weighted mean price of its fills; null until one.' }),
    cancelReason: t.expose('cancel_reason', { type: CancelReason, nullable: true, description: 'Why it was cancelled; null unless cancelled.' }),
    timeInForce: t.expose('time_in_force', { type: TimeInForce }),
    postOnly: t.exposeBoolean('post_only', { description: 'Cancelled (post_only) rather than trade on arrival.' }),
    stopPrice: t.expose('stop_price', { type: 'Decimal', nullable: true, description: 'Stop orders: the trade price that triggers them.' }),
    expireAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'gtd orders: when they are cancelled (expired).',
      resolve: (o) => (o.expire_at === null ? null : formatTimestamp(o.expire_at)),
    }),
    market: t.field({
      type: SymbolType,
      description: "The order's symbol with its rules; requires symbols:read.",
      resolve: async (o, _args, ctx) => {
        await ctx.auth.require(SYMBOLS_READ)
        return o.symbol
      },
    }),
  }),
})

const CreateOrderPayload = builder.objectRef<{ order: OrderRow; created: boolean }>('CreateOrderPayload').implement({
  fields: (t) => ({
    order: t.field({ type: Order, resolve: (p) => p.order }),
    created: t.exposeBoolean('created', {
      description: 'False when clientOrderId named an existing identical order, which is returned instead (REST: 200, not 201).',
    }),
  }),
})

const CreateOrderInput = builder.inputType('CreateOrderInput', {
  fields: (t) => ({
    clientOrderId: t.string({ description: 'Unique per tenant, forever: a resubmission returns the existing order.' }),
    symbol: t.string({ required: true }),
    side: t.field({ type: OrderSide, required: true }),
    type: t.field({ type: OrderType, required: true }),
    quantity: t.field({ type: 'Decimal', required: true }),
    price: t.field({ type: 'Decimal', description: 'Required for limit and stop_limit orders; market and stop_market orders take none.' }),
    timeInForce: t.field({ type: TimeInForce, description: 'gtc for limit orders when absent; market and stop_market orders are ioc.' }),
    postOnly: t.boolean({ description: 'Limit gtc or gtd orders only: cancelled (post_only) rather than trade on arrival.' }),
    stopPrice: t.field({ type: 'Decimal', description: 'Required for stop_limit and stop_market orders; others take none.' }),
    expireAt: t.field({ type: 'DateTime', description: 'Required for gtd: ISO 8601 with a zone, in the future, at most 90 days ahead.' }),
  }),
})

/** The REST body of the same order, so both faces go through one schema and report the same `detail`. */
const orderBody = (input: typeof CreateOrderInput.$inferInput) => ({
  client_order_id: input.clientOrderId,
  symbol: input.symbol,
  side: input.side,
  type: input.type,
  quantity: input.quantity,
  price: input.price,
  time_in_force: input.timeInForce,
  post_only: input.postOnly,
  stop_price: input.stopPrice,
  expire_at: input.expireAt,
})

const OrderPage = builder.objectRef<Page<OrderRow>>('OrderPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Order], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All orders matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const OrderFilter = builder.inputType('OrderFilter', {
  fields: (t) => ({
    symbol: t.string(),
    side: t.field({ type: [OrderSide], description: 'Any of these sides.' }),
    status: t.field({ type: [OrderStatus], description: 'Any of these statuses: [open, partially_filled] lists the orders still working.' }),
    clientOrderId: t.string({ description: "The bank's own id of an order: at most one order of a tenant." }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
    updatedAtFrom: t.field({ type: 'DateTime' }),
    updatedAtTo: t.field({ type: 'DateTime' }),
  }),
})

const OrderOrderBy = orderByInput('Order', ORDER_ORDERABLE)

builder.queryField('orders', (t) =>
  t.field({
    type: OrderPage,
    description: "Requires orders:read. The caller's tenant (admins: every tenant). Same rules as GET /api/exchange/v1/orders.",
    args: {
      filter: t.arg({ type: OrderFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: OrderOrderBy }),
    },
    resolve: (_root, args, ctx) => listOrders(ctx, listQueryFromArgs(args)),
  }),
)

builder.queryField('order', (t) =>
  t.field({
    type: Order,
    nullable: true,
    description: "Requires orders:read. Null when no such order exists; another tenant's order is FORBIDDEN.",
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getOrder(ctx, String(args.uid))),
  }),
)

builder.mutationField('createOrder', (t) =>
  t.field({
    type: CreateOrderPayload,
    description: 'Requires orders:write. Same rules and `detail` as POST /api/exchange/v1/orders.',
    args: { input: t.arg({ type: CreateOrderInput, required: true }) },
    resolve: (_root, { input }, ctx) => createOrder(ctx, () => orderBody(input)),
  }),
)

builder.mutationField('cancelOrder', (t) =>
  t.field({
    type: Order,
    description: 'Requires orders:write. Cancels an open or partially filled order of your tenant; otherwise CONFLICT.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => cancelOrder(ctx, String(args.uid)),
  }),
)

const AmendOrderInput = builder.inputType('AmendOrderInput', {
  description: 'A new total quantity (above what has filled), a new price, a new stopPrice (a pending stop order only), or any of them.',
  fields: (t) => ({
    quantity: t.field({ type: 'Decimal' }),
    price: t.field({ type: 'Decimal' }),
    stopPrice: t.field({ type: 'Decimal' }),
  }),
})

builder.mutationField('amendOrder', (t) =>
  t.field({
    type: Order,
    description:
      'Requires orders:write. Same rules and errors as PATCH /api/exchange/v1/orders/{uid}: a smaller quantity at the same price keeps time priority; a new price or a larger quantity goes to the back of its level and may trade at once.',
    args: { uid: t.arg.id({ required: true }), input: t.arg({ type: AmendOrderInput, required: true }) },
    resolve: (_root, { uid, input }, ctx) =>
      amendOrder(ctx, String(uid), () => ({ quantity: input.quantity, price: input.price, stop_price: input.stopPrice })),
  }),
)

const CancelledOrders = builder.objectRef<OrderRow[]>('CancelledOrders').implement({
  fields: (t) => ({
    cancelled: t.int({ description: 'How many orders were cancelled.', resolve: (orders) => orders.length }),
    items: t.field({ type: [Order], description: 'The cancelled orders, by symbol, in acceptance order.', resolve: (orders) => orders }),
  }),
})

builder.mutationField('cancelOrders', (t) =>
  t.field({
    type: CancelledOrders,
    description:
      "Requires orders:write. Cancels every open or partially filled order of your tenant on the symbols named or all, one side or both (admins: tenantId's, required). Same as DELETE /api/exchange/v1/orders.",
    args: {
      symbol: t.arg.stringList({ description: 'Only these symbols (all without it); an empty list names none and is refused, as REST refuses `symbol=`.' }),
      side: t.arg({ type: OrderSide }),
      tenantId: t.arg.id(),
    },
    resolve: (_root, args, ctx) =>
      cancelOrders(ctx, {
        ...listQueryFromArgs({ filter: { side: args.side, tenantId: args.tenantId } }),
        // Joined as REST sends it, so both faces report the same `detail`; [] is not "every symbol".
        ...(args.symbol ? { symbol: args.symbol.join(',') } : {}),
      }),
  }),
)

const OrderValidation = builder.objectRef<{ valid: true }>('OrderValidation').implement({
  description: 'The order would be accepted as it stands.',
  fields: (t) => ({ valid: t.exposeBoolean('valid') }),
})

builder.mutationField('validateOrder', (t) =>
  t.field({
    type: OrderValidation,
    description:
      'Requires orders:write. A dry run of createOrder: the same errors it would answer (FORBIDDEN, CONFLICT, BAD_USER_INPUT with the same detail), else { valid: true }. Nothing is stored, matched or counted as an order.',
    args: { input: t.arg({ type: CreateOrderInput, required: true }) },
    resolve: (_root, { input }, ctx) => validateOrder(ctx, () => orderBody(input)),
  }),
)
