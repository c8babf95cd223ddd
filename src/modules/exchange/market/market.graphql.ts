import type { RequestContext } from '../../../core/context.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { NOT_CATALOG_DATA } from '../../../graphql/answer-reuse/catalog-fields.ts'
import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { batchedByArgument } from '../../../graphql/loaders.ts'
import { OrderSideType } from '../orders/orders.graphql.ts'
import { SymbolType } from '../symbols/symbols.graphql.ts'
import { type BookLevel, type BookSnapshot, latestTradesOf, readBooks, type TradeRow } from './market.repository.ts'
import { DEFAULT_BOOK_DEPTH, DEFAULT_TRADES, MAX_BOOK_DEPTH, MAX_TRADES } from './market.schemas.ts'
import { bookDepthOf, getOrderBook, tradesLimitOf } from './market.ts'

const EMPTY_BOOK: BookSnapshot = { sequence: 0, bids: [], asks: [] }

const BookLevelType = builder.objectRef<BookLevel>('BookLevel').implement({
  description: 'One price level: the remaining quantity of its resting orders, and how many there are.',
  fields: (t) => ({
    price: t.expose('price', { type: 'Decimal' }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    orders: t.exposeInt('orders'),
  }),
})

const OrderBookType = builder.objectRef<BookSnapshot & { symbol: string }>('OrderBook').implement({
  description: "A snapshot of a symbol's book: bids high to low, asks low to high.",
  fields: (t) => ({
    symbol: t.exposeString('symbol'),
    sequence: t.string({
      description: "The symbol's market sequence this snapshot reflects (a 64-bit integer, as text): apply the market events after it.",
      resolve: (book) => String(book.sequence),
    }),
    bids: t.expose('bids', { type: [BookLevelType] }),
    asks: t.expose('asks', { type: [BookLevelType] }),
  }),
})

export const TradeType = builder.objectRef<TradeRow>('Trade').implement({
  description: 'A public trade: no tenant appears in it.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    symbol: t.exposeString('symbol'),
    price: t.expose('price', { type: 'Decimal', description: "The maker's price." }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    takerSide: t.expose('taker_side', { type: OrderSideType }),
    createdAt: t.field({ type: 'DateTime', resolve: (trade) => formatTimestamp(trade.created_at) }),
    sequence: t.string({ description: 'Its market sequence (a 64-bit integer, as text).', resolve: (trade) => String(trade.sequence) }),
  }),
})

builder.queryField('orderBook', (t) =>
  t.field({
    type: OrderBookType,
    nullable: true,
    description: 'Requires symbols:read. Null for an unknown symbol. Same as GET /api/exchange/v1/symbols/<symbol>/book.',
    args: { symbol: t.arg.string({ required: true }), depth: t.arg.int({ description: 'Levels per side, 1 to 100 (default 20).' }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getOrderBook(ctx, args.symbol, depthQuery(args.depth))),
  }),
)

// Under a list of symbols, every symbol's book (or trades) in one statement per argument value.
const booksOf = batchedByArgument((symbols: readonly string[], ctx: RequestContext, depth: number) => readBooks(ctx.services.db, symbols, depth), EMPTY_BOOK)
const tradesOf = batchedByArgument(
  (symbols: readonly string[], ctx: RequestContext, limit: number) => latestTradesOf(ctx.services.db, symbols, limit),
  [] as TradeRow[],
)

builder.objectField(SymbolType, 'orderBook', (t) =>
  t.field({
    extensions: NOT_CATALOG_DATA,
    type: OrderBookType,
    args: { depth: t.arg.int({ description: `Levels per side, 1 to ${MAX_BOOK_DEPTH} (default ${DEFAULT_BOOK_DEPTH}).` }) },
    resolve: async (symbol, args, ctx) => {
      const depth = await bookDepthOf(ctx, symbol, depthQuery(args.depth))
      return { symbol: symbol.symbol, ...(await booksOf(ctx, depth).load(symbol.symbol)) }
    },
  }),
)

builder.objectField(SymbolType, 'trades', (t) =>
  t.field({
    extensions: NOT_CATALOG_DATA,
    type: [TradeType],
    description: 'The latest trades, newest first.',
    args: { limit: t.arg.int({ description: `1 to ${MAX_TRADES} (default ${DEFAULT_TRADES}).` }) },
    resolve: async (symbol, args, ctx) => {
      const limit = await tradesLimitOf(ctx, symbol, args.limit == null ? {} : { limit: String(args.limit) })
      return tradesOf(ctx, limit).load(symbol.symbol)
    },
  }),
)

/** As in a URL, so both faces report the same `detail` for the same mistake. */
const depthQuery = (depth: number | null | undefined) => (depth == null ? {} : { depth: String(depth) })
