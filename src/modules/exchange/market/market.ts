import type { RequestContext } from '../../../core/context.ts'
import { parseInput } from '../../../core/validation.ts'
import { getSymbol } from '../symbols/symbols.ts'
import { type BookSnapshot, latestTrades, readBook, type TradeRow } from './market.repository.ts'
import { bookQuery, tradesQuery } from './market.schemas.ts'

/**
 * Public market data: no tenant appears in it, and `symbols:read` is enough (docs/api.md,
 * "Matching"). An unknown symbol is 404, as for the symbol itself.
 */
export async function getOrderBook(ctx: RequestContext, name: string, input: unknown): Promise<BookSnapshot & { symbol: string }> {
  const symbol = await getSymbol(ctx, name)
  const { depth } = parseInput(bookQuery, input, 'query')
  return { symbol: symbol.symbol, ...(await readBook(ctx.services.db, symbol.symbol, depth)) }
}

export async function getTrades(ctx: RequestContext, name: string, input: unknown): Promise<{ rows: TradeRow[]; total: number; limit: number }> {
  const symbol = await getSymbol(ctx, name)
  const { limit } = parseInput(tradesQuery, input, 'query')
  return { ...(await latestTrades(ctx.services.db, symbol.symbol, limit)), limit }
}
