import { builder } from '../../../graphql/builder.ts'
import type { AccountRecord, LedgerEntryRecord } from '../accounts/account-records.ts'
import { Account, LedgerEntry } from '../accounts/accounts.graphql.ts'
import { Fill } from '../fills/fills.graphql.ts'
import type { FillRow } from '../fills/fills.repository.ts'
import { TradeType } from '../market/market.graphql.ts'
import type { TradeRow } from '../market/market.repository.ts'
import type { CandleRecord } from '../market-data/candles.ts'
import { CandleType } from '../market-data/market-data.graphql.ts'
import { Order, OrderSideType } from '../orders/orders.graphql.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import type { WithdrawalRecord } from '../withdrawals/withdrawal-records.ts'
import { Withdrawal } from '../withdrawals/withdrawals.graphql.ts'
import { eventIterator, type StreamItem } from './event-streams.ts'
import type { StoredEvent } from './events.repository.ts'
import { openMarketStream, openTenantStream } from './events.ts'

/**
 * The same streams as `GET /api/exchange/v1/events` and `…/symbols/<symbol>/events`, as
 * subscriptions over SSE (docs/api.md, "Events"). Sequences are 64-bit: carried as text.
 */

// The records an event carries render the way the rows they were made from do (timestamps already
// formatted pass through formatTimestamp unchanged), so the GraphQL types of orders, fills and
// trades serve them as they are.
interface OrderEventBody {
  sequence: number
  type: string
  created_at: string
  order: OrderRow | null
  fill: FillRow | null
  account?: AccountRecord | null
  entry?: LedgerEntryRecord | null
  withdrawal?: WithdrawalRecord
}

interface BookLevelChange {
  side: 'buy' | 'sell'
  price: string
  quantity: string
  orders: number
  checksum?: number
}

interface MarketEventBody {
  sequence: number
  type: string
  created_at: string
  trade?: TradeRow
  book?: BookLevelChange
  candle?: CandleRecord
}

// The hub hands one event object to every stream of its key: its body is parsed once for all of
// them (GraphQL reads resolved values and never changes them).
const bodies = new WeakMap<StoredEvent, unknown>()
function parsed<T>(event: StoredEvent): T {
  let body = bodies.get(event)
  if (body === undefined) bodies.set(event, (body = JSON.parse(event.payload)))
  return body as T
}

/** The end of a stream reaches the client as its field's error (see eventIterator). */
function unwrap<T>(item: StreamItem<T>): T {
  if ('error' in item) throw item.error
  return item.event
}

const sequenceField = { description: "The event's place in its stream (a 64-bit integer, as text): 1, 2, 3, … without gaps." }

const OrderEvent = builder.objectRef<OrderEventBody>('OrderEvent').implement({
  description: "A change of one of the tenant's orders.",
  fields: (t) => ({
    sequence: t.string({ ...sequenceField, resolve: (e) => String(e.sequence) }),
    type: t.exposeString('type', {
      description:
        '`order.created`, `order.updated` (filled, partially filled, cancelled), `fill`, `balance` (an account changed) or `withdrawal` (a withdrawal changed); those two only for callers with accounts:read, others skip them and see the gap in sequence.',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.created_at }),
    order: t.field({ type: Order, nullable: true, description: 'The order as the change left it; null for a `balance` event.', resolve: (e) => e.order }),
    fill: t.field({ type: Fill, nullable: true, description: 'The fill of a `fill` event; null otherwise.', resolve: (e) => e.fill }),
    // The event carries the records as REST renders them: at their precision already.
    account: t.field({
      type: Account,
      nullable: true,
      description: 'The account as a `balance` event left it; null otherwise.',
      resolve: (e) => (e.account ? { ...e.account, tenant_id: '', precision: 0 } : null),
    }),
    entry: t.field({
      type: LedgerEntry,
      nullable: true,
      description: "The last ledger entry of a `balance` event's change; null for a hold change and for other events.",
      resolve: (e) => (e.entry ? { ...e.entry, precision: 0 } : null),
    }),
    withdrawal: t.field({
      type: Withdrawal,
      nullable: true,
      description: 'The withdrawal as a `withdrawal` event left it (only for callers with accounts:read); null otherwise.',
      resolve: (e) => e.withdrawal ?? null,
    }),
  }),
})

const BookLevelChangeType = builder.objectRef<BookLevelChange>('BookLevelChange').implement({
  description: "A book level's new totals; quantity 0 removes the level.",
  fields: (t) => ({
    side: t.expose('side', { type: OrderSideType, description: '`buy`: a bid level; `sell`: an ask level.' }),
    price: t.expose('price', { type: 'Decimal' }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    orders: t.exposeInt('orders'),
    checksum: t.string({
      nullable: true,
      description:
        'CRC-32 (an unsigned 32-bit integer, as text) of the book as this change leaves it: its best 10 asks then best 10 bids. Null only for events written before checksums existed.',
      resolve: (level) => (level.checksum === undefined ? null : String(level.checksum)),
    }),
  }),
})

const MarketEvent = builder.objectRef<MarketEventBody>('MarketEvent').implement({
  description: "A trade, a book level change or the 1m candle a trade updated, of a symbol's market.",
  fields: (t) => ({
    sequence: t.string({ ...sequenceField, resolve: (e) => String(e.sequence) }),
    type: t.exposeString('type', { description: '`trade`, `book` or `candle`.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.created_at }),
    trade: t.field({ type: TradeType, nullable: true, description: 'The trade of a `trade` event.', resolve: (e) => e.trade ?? null }),
    book: t.field({ type: BookLevelChangeType, nullable: true, description: 'The level of a `book` event.', resolve: (e) => e.book ?? null }),
    candle: t.field({
      type: CandleType,
      nullable: true,
      description: 'The 1m candle a `candle` event carries, as its trade left it: replace the candle with the same openTime, or append it.',
      resolve: (e) => e.candle ?? null,
    }),
  }),
})

const afterArg = 'Resume after this sequence (text of digits): every event after it, then live ones. Without it, the events committed from now on.'

builder.subscriptionField('orderEvents', (t) =>
  t.field({
    type: OrderEvent,
    description:
      "Requires orders:read. The tenant's order events as they commit (admins: another tenant's with tenantId). Same as GET /api/exchange/v1/events with Accept: text/event-stream. Ends with an UNAUTHENTICATED error when the token expires or is revoked, RESYNC when the client fell too far behind.",
    args: {
      after: t.arg.string({ description: afterArg }),
      tenantId: t.arg.id({ description: "Admins only: another tenant's stream." }),
    },
    subscribe: async (_root, args, ctx) => {
      const start = await openTenantStream(ctx, { after: args.after ?? undefined, tenant_id: args.tenantId ?? undefined })
      return eventIterator(ctx, start, parsed<OrderEventBody>)
    },
    resolve: (item: StreamItem<OrderEventBody>) => unwrap(item),
  }),
)

builder.subscriptionField('marketEvents', (t) =>
  t.field({
    type: MarketEvent,
    description:
      "Requires symbols:read. A symbol's trades and book level changes as they commit. Same as GET /api/exchange/v1/symbols/<symbol>/events with Accept: text/event-stream.",
    args: { symbol: t.arg.string({ required: true }), after: t.arg.string({ description: afterArg }) },
    subscribe: async (_root, args, ctx) => {
      const start = await openMarketStream(ctx, args.symbol, { after: args.after ?? undefined })
      return eventIterator(ctx, start, parsed<MarketEventBody>)
    },
    resolve: (item: StreamItem<MarketEventBody>) => unwrap(item),
  }),
)
