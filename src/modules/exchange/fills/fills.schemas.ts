import { z } from 'zod'

import { listQuerySchema } from '../../../core/lists.ts'
import { ORDER_SIDES } from '../orders/orders.schemas.ts'
import { symbolName } from '../symbols/symbols.schemas.ts'

/** A fill record's fields (docs/api.md, "Matching"), in order. */
export const FILL_FIELDS = ['uid', 'created_at', 'order_uid', 'trade_uid', 'symbol', 'side', 'role', 'price', 'quantity'] as const
export const FILL_ROLES = ['maker', 'taker'] as const

/** Fills never change: they have no `updated_at`, nor its filters. */
export const fillListQuery = listQuerySchema(
  {
    symbol: symbolName.optional(),
    side: z.enum(ORDER_SIDES).optional(),
    order_uid: z.uuid().optional(),
    tenant_id: z.uuid().optional(),
  },
  FILL_FIELDS,
).omit({ updated_at_from: true, updated_at_to: true })
export type FillListQuery = z.infer<typeof fillListQuery>
