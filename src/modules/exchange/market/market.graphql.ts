import type { RequestContext } from '../../../core/context.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { NOT_CATALOG_DATA } from '../../../graphql/answer-reuse/catalog-fields.ts'
import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { batchedByArgument } from '../../../graphql/loaders.ts'
import { OrderSideType } from '../orders/orders.graphql.ts'
import { SymbolType } from '../symbols/symbols.graphql.ts'
import { bookChecksum } from './book-checksum.ts'
import { type BookLevel, type BookSnapshot, latestTradesOf, readBooks, type TradeRow } from './market.repository.ts'
import { DEFAULT_BOOK_DEPTH, DEFAULT_TRADES, MAX_BOOK_DEPTH, MAX_TRADES } from './market.schemas.ts'
import { bookArgumentsOf, getOrderBook, tradesLimitOf } from './market.ts'

const GROUP = "Merge levels by this price step, a multiple of the symbol's tick size: bids into the step at or below, asks at or above."
const EMPTY_BOOK: BookSnapshot = { sequence: 0, checksum: bookChecksum('', ''), bids: [], asks: [] }

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
    checksum: t.string({
      description:
        'CRC-32 (an unsigned 32-bit integer, as text) of the best 10 asks then the best 10 bids as `price:quantity`, each side joined by `,`, the sides by `|`: of the grouped levels when `group` is given, whatever `depth`.',
      resolve: (book) => String(book.checksum),
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
    args: {
      symbol: t.arg.string({ required: true }),
      depth: t.arg.int({ description: 'Levels per side, 1 to 100 (default 20).' }),
      group: t.arg({ type: 'Decimal', description: GROUP }),
    },
    resolve: (_root, args, ctx) => nullIfNotFound(getOrderBook(ctx, args.symbol, bookQueryOf(args))),
  }),
)

// Under a list of symbols, every symbol's book (or trades) in one statement per argument value
// (a book's: its depth and group, as one key).
const booksOf = batchedByArgument((symbols: readonly string[], ctx: RequestContext, key: string) => {
  const [depth, group] = key.split(' ')
  return readBooks(ctx.services.db, symbols, Number(depth), group || null)
}, EMPTY_BOOK)
const tradesOf = batchedByArgument(
  (symbols: readonly string[], ctx: RequestContext, limit: number) => latestTradesOf(ctx.services.db, symbols, limit),
  [] as TradeRow[],
)

builder.objectField(SymbolType, 'orderBook', (t) =>
  t.field({
    extensions: NOT_CATALOG_DATA,
    type: OrderBookType,
    args: {
      depth: t.arg.int({ description: `Levels per side, 1 to ${MAX_BOOK_DEPTH} (default ${DEFAULT_BOOK_DEPTH}).` }),
      group: t.arg({ type: 'Decimal', description: GROUP }),
    },
    resolve: async (symbol, args, ctx) => {
      const { depth, group } = await bookArgumentsOf(ctx, symbol, bookQueryOf(args))
      return { symbol: symbol.symbol, ...(await booksOf(ctx, `${depth} ${group ?? ''}`).load(symbol.symbol)) }
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
const bookQueryOf = (args: { depth?: number | null | undefined; group?: string | null | undefined }) => ({
  ...(args.depth != null && { depth: String(args.depth) }),
  ...(args.group != null && { group: args.group }),
})
