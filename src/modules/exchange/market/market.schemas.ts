import { z } from 'zod'

import { isPositive } from '../../../core/decimal.ts'
import { intParam } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { customIssue } from '../../../core/validation.ts'
import { decimalText, ORDER_SIDES } from '../orders/orders.schemas.ts'

export const MAX_BOOK_DEPTH = 100
export const DEFAULT_BOOK_DEPTH = 20
export const MAX_TRADES = 100
export const DEFAULT_TRADES = 50

/**
 * A price step to merge levels by: a positive decimal; that it is a multiple of the symbol's
 * tick size is checked with the symbol (market.ts).
 */
const groupParam = decimalText
  .superRefine((input, ctx) => {
    if (!isPositive(input.value)) {
      customIssue(ctx, { type: 'value_error.number.not_gt', msg: 'ensure this value is greater than 0', input: input.text, ctx: { limit_value: '0' } })
    }
  })
  .optional()
  .meta({
    override: { type: 'string', example: '0.5' },
    description:
      "Merge levels by this price step, a multiple of the symbol's tick size: bids into the step at or below their price, asks into the step at or above; quantities and orders are summed.",
  })

/** `GET …/symbols/<symbol>/book`: how many price levels of each side, and the price step that merges them. */
export const bookQuery = z.strictObject({
  depth: intParam(1, MAX_BOOK_DEPTH, DEFAULT_BOOK_DEPTH, 'Price levels of each side, best first.'),
  group: groupParam,
})

/** `GET …/symbols/<symbol>/trades`: how many of the latest trades. */
export const tradesQuery = z.strictObject({
  limit: intParam(1, MAX_TRADES, DEFAULT_TRADES, 'How many of the latest trades, newest first.'),
})

/** A public trade record's fields, in order. */
export const TRADE_FIELDS = ['uid', 'symbol', 'price', 'quantity', 'taker_side', 'created_at', 'sequence'] as const

// --- Answers (docs/contracts.md) ---

const marketSequence = z.int().min(0).meta({ description: 'The symbol\'s market event sequence (docs/api.md, "Events").' })

const bookLevelSchema = z
  .object({
    price: decimalString,
    quantity: decimalString.meta({ description: 'What rests at this price, over all orders.' }),
    orders: z.int().min(1).meta({ description: 'How many orders rest at this price.' }),
  })
  .meta({ id: 'BookLevel' })

export const orderBookSchema = z
  .object({
    symbol: z.string().meta({ example: 'USD-IRR' }),
    sequence: marketSequence.meta({ description: 'The market sequence this snapshot reflects: apply the market events after it.' }),
    checksum: z.int().min(0).max(0xffffffff).meta({
      description:
        'CRC-32 (unsigned) of the best 10 asks then the best 10 bids as `price:quantity`, each side joined by `,`, the sides by `|` (of the grouped levels when `group` is given; docs/api.md, "Book integrity"). Whatever `depth`.',
      example: 2343686810,
    }),
    bids: z.array(bookLevelSchema).meta({ description: 'Buy levels, highest price first.' }),
    asks: z.array(bookLevelSchema).meta({ description: 'Sell levels, lowest price first.' }),
  })
  .meta({ id: 'OrderBook' })

export const tradeRecordSchema = z
  .object({
    uid: uuidText,
    symbol: z.string().meta({ example: 'USD-IRR' }),
    price: decimalString.meta({ description: "The maker's price." }),
    quantity: decimalString,
    taker_side: z.enum(ORDER_SIDES).meta({ description: 'The side of the order that crossed the book.' }),
    created_at: timestampText,
    sequence: marketSequence,
  })
  .meta({ id: 'Trade' })

export const tradeListSchema = listEnvelopeSchema('TradeList', tradeRecordSchema, TRADE_FIELDS)
