import type { RequestContext } from '../../../core/context.ts'
import { decimalFromStore, formatDecimal, isMultipleOf } from '../../../core/decimal.ts'
import { echoed, notFound, validationError } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import type { SymbolRow } from '../symbols/symbols.repository.ts'
import { getSymbol, SYMBOLS_READ } from '../symbols/symbols.ts'
import { type BookSnapshot, latestTrades, readBook, type TradeRow } from './market.repository.ts'
import { bookQuery, tradesQuery } from './market.schemas.ts'

/**
 * Public market data: no tenant appears in it, and `symbols:read` is enough (docs/api.md,
 * "Matching"). An unknown symbol is 404, as for the symbol itself.
 */
export async function getOrderBook(ctx: RequestContext, name: string, input: unknown): Promise<BookSnapshot & { symbol: string }> {
  const symbol = await getSymbol(ctx, name)
  const { depth, group } = bookArguments(symbol, input)
  return { symbol: symbol.symbol, ...(await readBook(ctx.services.db, symbol.symbol, depth, group)) }
}

/** What a book is read with: its depth, and the price step that merges its levels (a multiple of the symbol's tick size) or null. */
export interface BookArguments {
  depth: number
  group: string | null
}

function bookArguments(symbol: SymbolRow, input: unknown): BookArguments {
  const { depth, group } = parseInput(bookQuery, input, 'query')
  if (group === undefined) return { depth, group: null }
  if (!isMultipleOf(group.value, decimalFromStore(symbol.tick_size))) {
    throw validationError([
      {
        type: 'value_error.number.not_multiple',
        loc: ['query', 'group'],
        msg: `ensure this value is a multiple of ${symbol.tick_size}`,
        input: group.text,
        ctx: { multiple_of: symbol.tick_size },
      },
    ])
  }
  return { depth, group: formatDecimal(group.value) }
}

export async function getTrades(ctx: RequestContext, name: string, input: unknown): Promise<{ rows: TradeRow[]; total: number; limit: number }> {
  const symbol = await getSymbol(ctx, name)
  const { limit } = parseInput(tradesQuery, input, 'query')
  return { ...(await latestTrades(ctx.services.db, symbol.symbol, limit)), limit }
}

/**
 * GraphQL's `Symbol.orderBook` and `Symbol.trades`, whose symbol is already read: the same checks as
 * getOrderBook and getTrades (scope, a live symbol, the argument), in that order, without reading
 * the symbol again; the caller loads the books or trades of every symbol of a response at once.
 */
export async function bookArgumentsOf(ctx: RequestContext, symbol: SymbolRow, input: unknown): Promise<BookArguments> {
  await liveMarket(ctx, symbol)
  return bookArguments(symbol, input)
}

export async function tradesLimitOf(ctx: RequestContext, symbol: SymbolRow, input: unknown): Promise<number> {
  await liveMarket(ctx, symbol)
  return parseInput(tradesQuery, input, 'query').limit
}

async function liveMarket(ctx: RequestContext, symbol: SymbolRow): Promise<void> {
  await ctx.auth.require(SYMBOLS_READ)
  if (symbol.is_deleted) throw notFound(`Symbol ${echoed(symbol.symbol)} not found`)
}
