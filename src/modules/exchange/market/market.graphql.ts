import { formatTimestamp } from '../../../core/timestamps.ts'
import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { OrderSideType } from '../orders/orders.graphql.ts'
import { SymbolType } from '../symbols/symbols.graphql.ts'
import type { BookLevel, BookSnapshot, TradeRow } from './market.repository.ts'
import { getOrderBook, getTrades } from './market.ts'

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

builder.objectField(SymbolType, 'orderBook', (t) =>
  t.field({
    type: OrderBookType,
    args: { depth: t.arg.int({ description: 'Levels per side, 1 to 100 (default 20).' }) },
    resolve: (symbol, args, ctx) => getOrderBook(ctx, symbol.symbol, depthQuery(args.depth)),
  }),
)

builder.objectField(SymbolType, 'trades', (t) =>
  t.field({
    type: [TradeType],
    description: 'The latest trades, newest first.',
    args: { limit: t.arg.int({ description: '1 to 100 (default 50).' }) },
    resolve: async (symbol, args, ctx) => (await getTrades(ctx, symbol.symbol, args.limit == null ? {} : { limit: String(args.limit) })).rows,
  }),
)

/** As in a URL, so both faces report the same `detail` for the same mistake. */
const depthQuery = (depth: number | null | undefined) => (depth == null ? {} : { depth: String(depth) })
