import { z } from 'zod'

import { queryInt } from '../../../core/validation.ts'

export const MAX_BOOK_DEPTH = 100
export const DEFAULT_BOOK_DEPTH = 20
export const MAX_TRADES = 100
export const DEFAULT_TRADES = 50

/** `GET …/symbols/<symbol>/book`: how many price levels of each side. */
export const bookQuery = z.strictObject({
  depth: queryInt.pipe(z.number().int().min(1).max(MAX_BOOK_DEPTH)).default(DEFAULT_BOOK_DEPTH),
})

/** `GET …/symbols/<symbol>/trades`: how many of the latest trades. */
export const tradesQuery = z.strictObject({
  limit: queryInt.pipe(z.number().int().min(1).max(MAX_TRADES)).default(DEFAULT_TRADES),
})

/** A public trade record's fields, in order. */
export const TRADE_FIELDS = ['uid', 'symbol', 'price', 'quantity', 'taker_side', 'created_at', 'sequence'] as const
