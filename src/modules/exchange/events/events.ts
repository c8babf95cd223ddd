import { assertTenantAccess, hasScope, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { AppError, validationError } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { ORDERS_READ } from '../orders/orders.ts'
import { getSymbol, SYMBOLS_READ } from '../symbols/symbols.ts'
import { TENANT_EVENT_SCOPES, type TenantEventType } from './event-payloads.ts'
import { firstSequenceAfter, lastSequence, marketStream, readEvents, type StoredEvent, type StreamKey, tenantStream } from './events.repository.ts'
import { marketEventsQuery, sequenceParam, tenantEventsQuery } from './events.schemas.ts'

/**
 * Live events (docs/api.md, "Events"): a tenant's order events, and a symbol's market events, each
 * stream numbered 1, 2, 3, … without gaps. Both faces open streams and list events through these
 * operations; `event-streams.ts` carries them to an SSE response or a GraphQL subscription.
 */

/** Where a stream starts and whose it is: decided, and the client's stream slot taken, before anything is sent. */
export interface StreamStart {
  key: StreamKey
  after: number
  principal: Principal
  /** Event types the caller may not be given (see skippedTypes): the stream passes over them. */
  skipped: ReadonlySet<string>
  /** Frees the client's stream slot (once, however often it is called). */
  release: () => void
}

/** One page of a stream's events for pollers, and how many follow `after` in all. */
export interface EventPage {
  events: StoredEvent[]
  total: number
  limit: number
}

/** Opens the caller's tenant stream (admins: any tenant's, with `tenant_id`). */
export async function openTenantStream(ctx: RequestContext, input: unknown, lastEventId?: string): Promise<StreamStart> {
  const principal = await ctx.auth.require(ORDERS_READ)
  const query = parseInput(tenantEventsQuery, input, 'query')
  const key = tenantStream(tenantOf(principal, query.tenant_id))
  return openStream(ctx, principal, key, resumePoint(query.after, lastEventId), skippedTypes(principal))
}

/** Opens a symbol's market stream: public market data, as the book is. */
export async function openMarketStream(ctx: RequestContext, name: string, input: unknown, lastEventId?: string): Promise<StreamStart> {
  const principal = await ctx.auth.require(SYMBOLS_READ)
  const query = parseInput(marketEventsQuery, input, 'query')
  const symbol = await getSymbol(ctx, name)
  return openStream(ctx, principal, marketStream(symbol.symbol), resumePoint(query.after, lastEventId), [])
}

/** The caller's tenant's events after `after` (from the oldest kept without it), for polling. */
export async function listTenantEvents(ctx: RequestContext, input: unknown): Promise<EventPage> {
  const principal = await ctx.auth.require(ORDERS_READ)
  const query = parseInput(tenantEventsQuery, input, 'query')
  return listEvents(ctx, tenantStream(tenantOf(principal, query.tenant_id)), query.after, query.limit, skippedTypes(principal))
}

export async function listMarketEvents(ctx: RequestContext, name: string, input: unknown): Promise<EventPage> {
  await ctx.auth.require(SYMBOLS_READ)
  const query = parseInput(marketEventsQuery, input, 'query')
  const symbol = await getSymbol(ctx, name)
  return listEvents(ctx, marketStream(symbol.symbol), query.after, query.limit, [])
}

/** The tenant event types whose scope the caller lacks (TENANT_EVENT_SCOPES): `balance` without `accounts:read`. */
function skippedTypes(principal: Principal): TenantEventType[] {
  return (Object.keys(TENANT_EVENT_SCOPES) as TenantEventType[]).filter((type) => !hasScope(principal, TENANT_EVENT_SCOPES[type]))
}

/**
 * The caller's tenant, or the one asked for: its own, or any for an admin (403 otherwise). Lower
 * case, as streams are keyed and woken: an upper-case id must not follow a stream never woken.
 */
function tenantOf(principal: Principal, requested: string | undefined): string {
  if (requested === undefined) return principal.tenantId
  const tenantId = requested.toLowerCase()
  assertTenantAccess(principal, tenantId)
  return tenantId
}

/** Where to resume: `after`, else the `Last-Event-ID` header an SSE client sends when it reconnects. */
function resumePoint(after: number | undefined, lastEventId: string | undefined): { after: number; loc: string[] } | undefined {
  if (after !== undefined) return { after, loc: ['query', 'after'] }
  if (lastEventId === undefined) return undefined
  const loc = ['header', 'last-event-id']
  const parsed = sequenceParam.safeParse(lastEventId)
  if (!parsed.success) throw validationError([{ type: 'type_error.integer', loc, msg: 'value is not a valid integer', input: lastEventId.slice(0, 64) }])
  return { after: parsed.data, loc }
}

async function openStream(
  ctx: RequestContext,
  principal: Principal,
  key: StreamKey,
  resume: { after: number; loc: string[] } | undefined,
  skipped: readonly TenantEventType[],
): Promise<StreamStart> {
  const { events: hub, config } = ctx.services
  if (hub.closed) throw new AppError('service_unavailable', 'The service is shutting down', { headers: { 'retry-after': '1' } })
  const { after } = await checkedStart(ctx.services.db, key, resume, 'next', config.eventRetentionDays)
  if (!hub.acquireSlot(principal.clientId)) {
    throw new AppError('rate_limited', `Too many open event streams: at most ${config.maxStreamsPerClient} per client`, { headers: { 'retry-after': '5' } })
  }
  let released = false
  return {
    key,
    after,
    principal,
    skipped: new Set(skipped),
    release: () => {
      if (released) return
      released = true
      hub.releaseSlot(principal.clientId)
    },
  }
}

/** `total` counts the sequences after `after`, skipped types included: it is cheap, and where the stream ends. */
async function listEvents(
  ctx: RequestContext,
  key: StreamKey,
  after: number | undefined,
  limit: number,
  skipped: readonly TenantEventType[],
): Promise<EventPage> {
  const { db, config } = ctx.services
  const start = await checkedStart(db, key, after === undefined ? undefined : { after, loc: ['query', 'after'] }, 'oldest', config.eventRetentionDays)
  return { events: await readEvents(db, key, start.after, limit, skipped), total: start.last - start.after, limit }
}

/**
 * The sequence a stream or list starts after. Without one given: the stream's last (a stream
 * carries what commits from now on) or the oldest kept less one (a list starts there). One given
 * must not be past the stream's end (422), nor before what is kept (410 `events_expired`): a
 * stream is gapless, so a first kept sequence beyond `after + 1` means the purge took the rest.
 */
async function checkedStart(
  db: Db,
  key: StreamKey,
  resume: { after: number; loc: string[] } | undefined,
  otherwise: 'next' | 'oldest',
  retentionDays: number,
): Promise<{ after: number; last: number }> {
  const last = await lastSequence(db, key)
  if (resume === undefined) {
    if (otherwise === 'next') return { after: last, last }
    const first = await firstSequenceAfter(db, key, 0)
    return { after: first === undefined ? last : first - 1, last }
  }
  const { after, loc } = resume
  if (after > last) {
    throw validationError([
      { type: 'value_error.number.not_le', loc, msg: `ensure this value is less than or equal to ${last}`, input: after, ctx: { limit_value: last } },
    ])
  }
  if (after < last) {
    const first = await firstSequenceAfter(db, key, after)
    if (first !== after + 1) {
      const oldest = (first ?? last + 1) - 1
      throw new AppError('events_expired', `Events after ${after} are no longer kept (events are kept ${retentionDays} days); resume after ${oldest}`)
    }
  }
  return { after, last }
}
