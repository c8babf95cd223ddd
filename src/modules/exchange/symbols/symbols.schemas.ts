import { z } from 'zod'

import { COMMON_FIELDS, listQuerySchema } from '../../../core/lists.ts'
import { queryBool } from '../../../core/validation.ts'

/** The symbol fields of the reference's symbol record, in its order, after the common ones. */
export const SYMBOL_FIELDS = [
  ...COMMON_FIELDS,
  'symbol',
  'price_precision',
  'quantity_precision',
  'min_order_quantity',
  'tick_size',
  'daily_fluctuation_price_limit_percent',
  'description',
  'is_active',
] as const

/** The reference's list envelope names `id` and `revision_id` among the heads although items never carry them. */
export const SYMBOL_HEAD_FIELDS = ['id', 'revision_id', ...SYMBOL_FIELDS] as const

const SYMBOL_ORDERABLE = SYMBOL_FIELDS.filter((f) => f !== 'meta_data' && f !== 'is_deleted')

export const MAX_SYMBOL_LENGTH = 32

/** Currency codes are upper case; `usd-irr` names the same market as `USD-IRR`. */
export const symbolName = z.string().min(1).max(MAX_SYMBOL_LENGTH, { abort: true }).toUpperCase()

export const symbolListQuery = listQuerySchema({ symbol: symbolName.optional(), is_active: queryBool.optional() }, SYMBOL_ORDERABLE)
export type SymbolListQuery = z.infer<typeof symbolListQuery>
