import { makeHeads } from '../../../core/lists.ts'
import { EventStreamBody, JsonText } from '../../../http/responses.ts'
import type { DocumentedRoute, RestRequest } from '../../../http/router.ts'
import { ORDERS_READ } from '../orders/orders.ts'
import { symbolParams } from '../symbols/symbols.schemas.ts'
import { SYMBOLS_READ } from '../symbols/symbols.ts'
import { serveEventStream } from './event-streams.ts'
import {
  eventRequestHeaders,
  eventStreamText,
  MARKET_EVENT_FIELDS,
  marketEventListSchema,
  marketEventsQuery,
  TENANT_EVENT_FIELDS,
  tenantEventListSchema,
  tenantEventsQuery,
} from './events.schemas.ts'
import { type EventPage, listMarketEvents, listTenantEvents, openMarketStream, openTenantStream, type StreamStart } from './events.ts'

// `Accept` is bounded by Node's header limit; `includes` is one linear scan.
const wantsStream = (req: RestRequest) => req.header('accept')?.toLowerCase().includes('text/event-stream') ?? false

const streamBody = (req: RestRequest, start: StreamStart) =>
  new EventStreamBody(
    (writer) => serveEventStream(req.ctx, start, writer),
    () => start.release(),
  )

/** The list envelope, its items the stored JSON bodies as they are: nothing parsed, nothing rendered again. */
function eventList(heads: string, page: EventPage): JsonText {
  const items = page.events.map((event) => event.payload).join(',')
  return new JsonText(Buffer.from(`{"heads":${heads},"items":[${items}],"total":${page.total},"offset":0,"limit":${page.limit}}`))
}

const tenantHeads = JSON.stringify(makeHeads(TENANT_EVENT_FIELDS))
const marketHeads = JSON.stringify(makeHeads(MARKET_EVENT_FIELDS))

export const eventRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/api/exchange/v1/events',
    handler: async (req) =>
      wantsStream(req)
        ? { body: streamBody(req, await openTenantStream(req.ctx, req.query, req.header('last-event-id'))) }
        : { body: eventList(tenantHeads, await listTenantEvents(req.ctx, req.query)) },
    doc: {
      operationId: 'streamOrderEvents',
      summary: "Your tenant's order events",
      description:
        'Every change of your orders, in order: `order.created`, `order.updated` (filled, partially filled, cancelled) and `fill`, and `balance` (an account changed) and `withdrawal` (a withdrawal changed) for callers with `accounts:read`, numbered by `sequence` without gaps (a caller without `accounts:read` is not given those events: its sequence shows their gaps). With `Accept: text/event-stream`, a Server-Sent Events stream that resumes after `after` or `Last-Event-ID`; otherwise one page of the events after `after`, for polling.',
      tag: 'exchange',
      scope: ORDERS_READ,
      query: tenantEventsQuery,
      requestHeaders: eventRequestHeaders,
      responses: {
        200: {
          description: 'The stream, or one page of events',
          content: { 'application/json': tenantEventListSchema, 'text/event-stream': eventStreamText },
        },
      },
      errors: {
        forbidden: '`tenant_id` names another tenant',
        events_expired: '`after` is older than the events kept (`EVENT_RETENTION_DAYS`)',
      },
    },
  },
  {
    method: 'GET',
    path: '/api/exchange/v1/symbols/:symbol/events',
    handler: async (req) => {
      const symbol = req.params.symbol!
      return wantsStream(req)
        ? { body: streamBody(req, await openMarketStream(req.ctx, symbol, req.query, req.header('last-event-id'))) }
        : { body: eventList(marketHeads, await listMarketEvents(req.ctx, symbol, req.query)) }
    },
    doc: {
      operationId: 'streamMarketEvents',
      summary: "A symbol's market events",
      description:
        "The symbol's trades (`trade`) and book level changes (`book`), numbered by `sequence` without gaps; the book snapshot carries the sequence it reflects, so apply the events after it. Public market data: no tenant appears in it. Streams and lists as `GET /api/exchange/v1/events` does.",
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      query: marketEventsQuery,
      requestHeaders: eventRequestHeaders,
      responses: {
        200: {
          description: 'The stream, or one page of events',
          content: { 'application/json': marketEventListSchema, 'text/event-stream': eventStreamText },
        },
      },
      errors: {
        not_found: 'No symbol has this name',
        events_expired: '`after` is older than the events kept (`EVENT_RETENTION_DAYS`)',
      },
    },
  },
]
