import { z } from 'zod'

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
  const row = await updateSymbolByName(db, input.symbol, { reference_price: input.price })
  if (!row) throw notFound(`Symbol ${symbol} does not exist`)
  return { symbol: row.symbol, reference_price: row.reference_price }
}

export async function setSymbolActive(db: Db, symbol: string, isActive: boolean) {
  const row = await updateSymbolByName(db, symbol, { is_active: isActive })
  if (!row) throw notFound(`Symbol ${symbol} does not exist`)
  return { symbol: row.symbol, is_active: row.is_active }
}
