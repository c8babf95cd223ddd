import { builder } from '../../../graphql/builder.ts'
import { cancelAfter } from './cancel-after.ts'

const CancelAfterPayload = builder.objectRef<{ deadline: string | null }>('CancelAfterPayload').implement({
  fields: (t) => ({
    deadline: t.expose('deadline', {
      type: 'DateTime',
      nullable: true,
      description: 'When the open orders and pending stops will be cancelled; null when disarmed.',
    }),
  }),
})

builder.mutationField('cancelAfter', (t) =>
  t.field({
    type: CancelAfterPayload,
    description:
      'Requires orders:write. Same as POST /api/exchange/v1/orders/cancel-after: unless called again before the deadline, every open order and pending stop order of your tenant is cancelled (cancelReason deadline); 0 disarms.',
    args: { timeoutSeconds: t.arg.int({ required: true, description: '0 to 600.' }) },
    resolve: (_root, args, ctx) => cancelAfter(ctx, () => ({ timeout_seconds: args.timeoutSeconds })),
  }),
)
