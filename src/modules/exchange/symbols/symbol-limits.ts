import { sql } from 'kysely'
import { z } from 'zod'

import { isPositive, parseDecimal } from '../../../core/decimal.ts'
import { notFound, validationError } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'

// Longer text is refused before the pattern, as order decimals are (orders.schemas.ts).
const MAX_LIMIT_TEXT = 40

/** A limit: a positive decimal, or `none` (no limit); absent keeps the symbol's current one. */
const limit = z
  .string()
  .max(MAX_LIMIT_TEXT, { abort: true })
  .refine((text) => text === 'none' || /^\d+(\.\d+)?$/.test(text), { message: 'a limit is a positive decimal, or none', abort: true })
  .refine((text) => text === 'none' || isPositive(parseDecimal(text)!), 'a limit is greater than 0 (none: no limit)')
  .transform((text) => (text === 'none' ? null : text))
  .optional()

const limitsInput = z.object({ symbol: z.string().min(1).max(64), max_qty: limit, min_notional: limit })

/**
 * Operators set a symbol's size limits (docs/api.md, "Order limits"): the largest quantity of one
 * order and the smallest price × quantity. Orders already resting keep theirs; new orders and amends
 * are checked against the new limits. The symbol caches see the change by the catalog's
 * fingerprint, as they see new fees.
 */
export async function setSymbolLimits(db: Db, symbol: string | undefined, maxQty: string | undefined, minNotional: string | undefined) {
  const input = parseInput(limitsInput, { symbol, max_qty: maxQty, min_notional: minNotional }, 'body')
  if (input.max_qty === undefined && input.min_notional === undefined) {
    throw validationError([{ type: 'missing', loc: ['body', 'max_qty'], msg: 'give --max-qty, --min-notional or both (none clears one)' }])
  }
  const row = await db
    .updateTable('symbols')
    .set({
      ...(input.max_qty !== undefined && { max_order_quantity: input.max_qty }),
      ...(input.min_notional !== undefined && { min_notional: input.min_notional }),
      updated_at: sql<string>`timezone('utc', now())`,
    })
    .where('symbol', '=', input.symbol.toUpperCase())
    .where('is_deleted', '=', false)
    .returning(['symbol', 'max_order_quantity', 'min_notional'])
    .executeTakeFirst()
  if (!row) throw notFound(`Symbol ${input.symbol} does not exist`)
  return row
}
