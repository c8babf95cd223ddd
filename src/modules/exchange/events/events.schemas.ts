import { z } from 'zod'

import { intParam, MAX_LIMIT } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText } from '../../../core/response-schemas.ts'
import { queryInt } from '../../../core/validation.ts'
import { accountRecordSchema, ledgerEntrySchema } from '../accounts/accounts.schemas.ts'
import { fillRecordSchema } from '../fills/fills.schemas.ts'
import { tradeRecordSchema } from '../market/market.schemas.ts'
import { candleEventBodySchema } from '../market-data/market-data.schemas.ts'
import { ORDER_SIDES, orderRecordSchema } from '../orders/orders.schemas.ts'
import { withdrawalRecordSchema } from '../withdrawals/withdrawals.schemas.ts'

export const TENANT_EVENT_TYPES = ['order.created', 'order.updated', 'fill', 'balance', 'withdrawal'] as const
export const MARKET_EVENT_TYPES = ['trade', 'book', 'candle'] as const

/** An event's fields, in order: a tenant event's, a market event's (which carries `trade` or `book`). */
export const TENANT_EVENT_FIELDS = ['sequence', 'type', 'created_at', 'order', 'fill', 'account', 'entry', 'withdrawal'] as const
export const MARKET_EVENT_FIELDS = ['sequence', 'type', 'created_at', 'trade', 'book', 'candle'] as const

/** A sequence as a query parameter or a GraphQL argument: text of digits (or an integer), 0 or more. */
export const sequenceParam = queryInt.pipe(z.number().int().min(0))

const after = sequenceParam.optional().meta({
  override: { type: 'integer', minimum: 0 },
  description:
    'Resume after this sequence: every event after it, in order. Without it a stream starts with the next event committed, and a list with the oldest kept.',
})

const limit = intParam(1, MAX_LIMIT, MAX_LIMIT, 'Events per page, at most 100 (the JSON list only).')

/** `GET /api/exchange/v1/events`: admins may follow another tenant's stream with `tenant_id`. */
export const tenantEventsQuery = z.strictObject({
  after,
  limit,
  tenant_id: z.uuid().optional().meta({ description: "Admins only: another tenant's stream." }),
})
export type TenantEventsQuery = z.infer<typeof tenantEventsQuery>

/** `GET /api/exchange/v1/symbols/<symbol>/events`. */
export const marketEventsQuery = z.strictObject({ after, limit })

/** Request headers of the event routes, for the document. */
export const eventRequestHeaders = z.object({
  accept: z.string().optional().meta({ description: '`text/event-stream` for a stream; anything else answers the JSON list.', example: 'text/event-stream' }),
  'last-event-id': z
    .string()
    .optional()
    .meta({ description: 'As `after`: the `id` of the last message received (what SSE clients send when they reconnect).' }),
})

// --- Answers (docs/contracts.md) ---

const sequence = z.int().min(1).meta({ description: "The event's place in its stream: 1, 2, 3, … without gaps." })

const orderEventSchema = z
  .object({
    sequence,
    type: z
      .enum(['order.created', 'order.updated', 'fill'])
      .meta({ description: '`order.created`, `order.updated` (filled, partially filled or cancelled), `fill`.' }),
    created_at: timestampText,
    order: orderRecordSchema.meta({ description: 'The order as the change left it.' }),
    fill: fillRecordSchema.nullable().meta({ description: 'The fill of a `fill` event; null otherwise.' }),
  })
  .meta({ id: 'OrderChangeEvent' })

/** A change of one of the tenant's accounts (docs/accounts.md, "Events"). */
const balanceEventSchema = z
  .object({
    sequence,
    type: z.literal('balance'),
    created_at: timestampText,
    account: accountRecordSchema.meta({ description: 'The account as the change left it.' }),
    entry: ledgerEntrySchema.nullable().meta({ description: "The change's (last) ledger entry of this account; null when only its hold changed." }),
    order: z.null(),
    fill: z.null(),
  })
  .meta({ id: 'BalanceEvent' })

/** A change of one of the tenant's withdrawals (docs/accounts.md, "Withdrawals"). */
const withdrawalEventSchema = z
  .object({
    sequence,
    type: z.literal('withdrawal'),
    created_at: timestampText,
    withdrawal: withdrawalRecordSchema.meta({ description: 'The withdrawal as the change left it.' }),
  })
  .meta({ id: 'WithdrawalEvent' })

export const tenantEventSchema = z.union([orderEventSchema, balanceEventSchema, withdrawalEventSchema]).meta({ id: 'OrderEvent' })

const bookLevelChangeSchema = z
  .object({
    side: z.enum(ORDER_SIDES).meta({ description: '`buy`: a bid level; `sell`: an ask level.' }),
    price: decimalString,
    quantity: decimalString.meta({ description: 'The level\'s new total; "0" removes the level.' }),
    orders: z.int().min(0).meta({ description: 'Orders now resting at this price.' }),
    checksum: z.int().min(0).max(0xffffffff).optional().meta({
      description:
        'CRC-32 (unsigned) of the book as this change leaves it: its best 10 asks then best 10 bids (docs/api.md, "Book integrity"). Absent only from events written before checksums existed.',
    }),
  })
  .meta({ id: 'BookLevelChange' })

export const marketEventSchema = z
  .union([
    z.object({ sequence, type: z.literal('trade'), created_at: timestampText, trade: tradeRecordSchema }).meta({ id: 'TradeEvent' }),
    z.object({ sequence, type: z.literal('book'), created_at: timestampText, book: bookLevelChangeSchema }).meta({ id: 'BookEvent' }),
    z.object({ sequence, type: z.literal('candle'), created_at: timestampText, candle: candleEventBodySchema }).meta({ id: 'CandleEvent' }),
  ])
  .meta({ id: 'MarketEvent' })

export const tenantEventListSchema = listEnvelopeSchema('OrderEventList', tenantEventSchema, TENANT_EVENT_FIELDS)
export const marketEventListSchema = listEnvelopeSchema('MarketEventList', marketEventSchema, MARKET_EVENT_FIELDS)

export const eventStreamText = z.string().meta({
  description:
    'Server-Sent Events: each event is `id: <sequence>`, `event: <type>`, `data: <event JSON>`; `: ping` comments keep it alive; `event: token_expired`, `event: token_revoked` and `event: resync` end it (docs/api.md, "Events").',
  example: 'id: 42\nevent: order.created\ndata: {"sequence":42,"type":"order.created",…}\n\n',
})
