import type { DocumentedRoute } from '../../../http/router.ts'
import { ORDERS_WRITE } from '../orders/orders.ts'
import { cancelAfterBody, cancelAfterSchema } from './cancel-after.schemas.ts'
import { cancelAfter } from './cancel-after.ts'

export const cancelAfterRoutes: DocumentedRoute[] = [
  {
    method: 'POST',
    path: '/api/exchange/v1/orders/cancel-after',
    handler: async ({ ctx, body }) => ({ body: await cancelAfter(ctx, body) }),
    doc: {
      operationId: 'cancelAfter',
      summary: 'Cancel on disconnect (a dead man’s switch)',
      description:
        'Arms, moves or (0) disarms your tenant’s deadline: unless this is called again before it, every open or partially filled order and every pending stop order of your tenant is cancelled with `cancel_reason: "deadline"` within 1 s after it, its hold released, by whichever instance is up. Call it every few seconds with a timeout longer than the interval.',
      tag: 'exchange',
      scope: ORDERS_WRITE,
      body: cancelAfterBody,
      bodyExamples: {
        arm: { summary: 'Cancel everything unless called again within 60 s', value: { timeout_seconds: 60 } },
        disarm: { summary: 'Disarm', value: { timeout_seconds: 0 } },
      },
      responses: { 200: { description: 'The deadline now armed, or null', body: cancelAfterSchema } },
    },
  },
]
