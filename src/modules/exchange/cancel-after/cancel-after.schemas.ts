import { z } from 'zod'

import { timestampText } from '../../../core/response-schemas.ts'

/** The longest a dead man's switch may be armed for, in seconds (docs/api.md, "Cancel on disconnect"). */
export const MAX_CANCEL_AFTER_SECONDS = 600

/** `POST /orders/cancel-after`: seconds from now until the tenant's open orders and pending stops are cancelled; 0 disarms. */
export const cancelAfterBody = z
  .strictObject({
    timeout_seconds: z.int().min(0).max(MAX_CANCEL_AFTER_SECONDS),
  })
  .meta({
    id: 'CancelAfterRequest',
    description: `Whole seconds, 0 to ${MAX_CANCEL_AFTER_SECONDS}: unless called again before then, every open order and pending stop order of your tenant is cancelled (\`cancel_reason: "deadline"\`) within 1 s after. 0 disarms.`,
  })

export const cancelAfterSchema = z
  .object({
    deadline: timestampText.nullable().meta({ description: 'When the open orders and pending stops will be cancelled (UTC); null when disarmed.' }),
  })
  .meta({ id: 'CancelAfter' })
