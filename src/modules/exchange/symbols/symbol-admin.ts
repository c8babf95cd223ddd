import { sql } from 'kysely'
import { z } from 'zod'

import { compareDecimals, parseDecimal } from '../../../core/decimal.ts'
import { notFound } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { updateSymbolByName } from './symbols.repository.ts'

const referencePriceInput = z.object({
  symbol: z.string().min(1),
  price: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'price must be a positive decimal')
    .refine((v) => /[1-9]/.test(v), 'price must be positive'),
})

/** Operators set the reference price that the daily fluctuation band is computed from. */
export async function setReferencePrice(db: Db, symbol: string, price: string) {
  const input = parseInput(referencePriceInput, { symbol, price }, 'body')
  // It stands for the rest of the market day: the day's roll passes over it (docs/market-data.md).
  const row = await updateSymbolByName(db, input.symbol, { reference_price: input.price, reference_price_at: sql<string>`timezone('utc', now())` })
  if (!row) throw notFound(`Symbol ${symbol} does not exist`)
  return { symbol: row.symbol, reference_price: row.reference_price }
}

const percent = z
  .string()
  .max(32, { abort: true })
  .regex(/^\d+(\.\d+)?$/, 'a fee is a decimal percent, 0 or more')
  .refine((v) => compareDecimals(parseDecimal(v)!, HUNDRED) < 0, 'a fee is less than 100 percent')

const HUNDRED = { coefficient: 100n, scale: 0 }
const feesInput = z.object({ symbol: z.string().min(1), maker: percent, taker: percent })

/** Operators set a symbol's fee rates (percent of a fill's notional, in the quote currency; docs/accounts.md). */
export async function setSymbolFees(db: Db, symbol: string, maker: string, taker: string) {
  const input = parseInput(feesInput, { symbol, maker, taker }, 'body')
  const row = await updateSymbolByName(db, input.symbol, { maker_fee_percent: input.maker, taker_fee_percent: input.taker })
  if (!row) throw notFound(`Symbol ${symbol} does not exist`)
  return { symbol: row.symbol, maker_fee_percent: row.maker_fee_percent, taker_fee_percent: row.taker_fee_percent }
}

export async function setSymbolActive(db: Db, symbol: string, isActive: boolean) {
  const row = await updateSymbolByName(db, symbol, { is_active: isActive })
  if (!row) throw notFound(`Symbol ${symbol} does not exist`)
  return { symbol: row.symbol, is_active: row.is_active }
}
