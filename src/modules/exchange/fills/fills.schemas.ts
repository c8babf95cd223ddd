import { z } from 'zod'

import { intParam, listQuerySchema } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { ORDER_SIDES } from '../orders/orders.schemas.ts'
import { symbolName } from '../symbols/symbols.schemas.ts'

/** A fill record's fields (docs/api.md, "Matching"), in order. */
export const FILL_FIELDS = [
  'uid',
  'created_at',
  'order_uid',
  'trade_uid',
  'symbol',
  'side',
  'role',
  'price',
  'quantity',
  'fee',
  'fee_currency',
  'liquidity',
] as const
/** What fills sort by: the fields before fees came (`liquidity` is `role` again, and fees sort nothing a bank asked for). */
export const FILL_ORDERABLE = ['uid', 'created_at', 'order_uid', 'trade_uid', 'symbol', 'side', 'role', 'price', 'quantity'] as const
export const FILL_ROLES = ['maker', 'taker'] as const

/** Fills never change: they have no `updated_at`, nor its filters. */
export const fillListQuery = listQuerySchema(
  {
    symbol: symbolName.optional(),
    side: z.enum(ORDER_SIDES).optional(),
    order_uid: z.uuid().optional(),
    tenant_id: z.uuid().optional(),
  },
  FILL_ORDERABLE,
).omit({ updated_at_from: true, updated_at_to: true })
export type FillListQuery = z.infer<typeof fillListQuery>

/** GraphQL's `Order.fills` under a page of orders: bounded like every list (docs/operations.md, "Abuse limits"). */
export const MAX_FILLS_PER_ORDER = 100
export const orderFillsQuery = z.strictObject({
  limit: intParam(1, MAX_FILLS_PER_ORDER, MAX_FILLS_PER_ORDER, "How many of the order's fills, oldest first."),
})

// --- Answers (docs/contracts.md) ---

/** A fill record (docs/api.md, "Matching"), in FILL_FIELDS order. */
export const fillRecordSchema = z
  .object({
    uid: uuidText,
    created_at: timestampText,
    order_uid: uuidText.meta({ description: 'The order of your tenant this fill belongs to.' }),
    trade_uid: uuidText.meta({ description: 'The trade: the same trade seen from the other order is a fill of the other side.' }),
    symbol: z.string().meta({ example: 'USD-IRR' }),
    side: z.enum(ORDER_SIDES),
    role: z.enum(FILL_ROLES).meta({ description: '`maker`: the order rested in the book; `taker`: it crossed the book.' }),
    price: decimalString.meta({ description: "The maker's price." }),
    quantity: decimalString,
    fee: decimalString.meta({
      description: "What your order paid for this fill, at the fee currency's places: its `fee` ledger entry negated (`0` when the rate was zero).",
    }),
    fee_currency: z.string().meta({ description: "The symbol's quote currency, in which every fee is paid.", example: 'IRR' }),
    liquidity: z
      .enum(FILL_ROLES)
      .meta({ description: '`maker` (added liquidity: paid the maker rate) or `taker` (took it: the taker rate); the same as `role`.' }),
  })
  .meta({ id: 'Fill' })

export const fillListSchema = listEnvelopeSchema('FillList', fillRecordSchema, FILL_FIELDS)
