import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { cancelOrderByClientId, getOrderByClientId } from './by-client-id.ts'
import { Order } from './orders.graphql.ts'

builder.queryField('orderByClientOrderId', (t) =>
  t.field({
    type: Order,
    nullable: true,
    description:
      'Requires orders:read. The order your tenant placed with this clientOrderId; null when there is none. Same as GET /api/exchange/v1/orders/by-client-id/{client_order_id}.',
    args: { clientOrderId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getOrderByClientId(ctx, args.clientOrderId)),
  }),
)

builder.mutationField('cancelOrderByClientOrderId', (t) =>
  t.field({
    type: Order,
    description:
      'Requires orders:write. Cancels, as cancelOrder does, the order your tenant placed with this clientOrderId; NOT_FOUND when there is none. Same as DELETE /api/exchange/v1/orders/by-client-id/{client_order_id}.',
    args: { clientOrderId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => cancelOrderByClientId(ctx, args.clientOrderId),
  }),
)
