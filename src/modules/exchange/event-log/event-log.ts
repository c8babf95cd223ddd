import { type RawBuilder, sql } from 'kysely'

import { type Db, separatedTexts } from '../../../db/database.ts'

/**
 * A stream's name: `t:<tenant id>` for a tenant's order events, `m:<symbol>` for a symbol's market
 * events. One text names it in the hub, in notifications and in logs.
 */
export type StreamKey = `t:${string}` | `m:${string}`

export const tenantStream = (tenantId: string): StreamKey => `t:${tenantId}`
export const marketStream = (symbol: string): StreamKey => `m:${symbol}`

/** The channel every writer of events notifies on PostgreSQL (docs/events.md). */
export const EVENTS_CHANNEL = 'exchange_events'

/**
 * An event of a tenant's stream. Its sequence is the tenant's next ones, counted in the statement
 * (the tenant's counter row is locked until the writer commits), so `rest` is the JSON body after
 * its `"sequence"` member: `,"type":…}`. `ordinal` numbers the tenant's events of the statement from 1.
 */
export interface TenantEventWrite<Type extends string = string> {
  tenant_id: string
  ordinal: number
  type: Type
  rest: string
}

/** The types of a symbol's stream. */
export type MarketEventType = 'trade' | 'book' | 'candle'

/** A market event's whole JSON body: its sequence is the symbol's, known to its writer. */
export function marketEventPayload(sequence: number, type: MarketEventType, createdAt: string, body: object): string {
  return JSON.stringify({ sequence, type, created_at: createdAt, ...body })
}

/** An event of a symbol's stream, its sequence and body known to the writer (the book row's lock orders them). */
export interface MarketEventWrite<Type extends string = string> {
  sequence: number
  type: Type
  payload: string
}

/**
 * Appends `events` to `into`, each numbered after the tenant's events already there: the ordinals
 * one statement's append turns into the tenants' next sequence numbers.
 */
export function appendNumbered<Type extends string>(into: TenantEventWrite<Type>[], events: readonly Omit<TenantEventWrite<Type>, 'ordinal'>[]): void {
  if (events.length === 0) return
  const ordinals = new Map<string, number>()
  for (const event of into) ordinals.set(event.tenant_id, Math.max(event.ordinal, ordinals.get(event.tenant_id) ?? 0))
  for (const event of events) {
    const ordinal = (ordinals.get(event.tenant_id) ?? 0) + 1
    ordinals.set(event.tenant_id, ordinal)
    into.push({ ...event, ordinal })
  }
}

const column = <T, K extends keyof T>(rows: readonly T[], key: K) => rows.map((row) => row[key])

/**
 * The one append of tenants' events, as common table expressions of the writer's statement
 * (`tenant_input`, `tenant_counts`, `counted`, `tenant_written`): each tenant's counter moves by
 * its events' count and each event takes `last − added + ordinal`, so the numbers are gapless and
 * the counter row stays locked until the writer commits. `gate`: a CTE the writer's statement
 * names (the matching pass's `book`), whose row must exist for anything to be written.
 */
export function tenantEventAppend(events: readonly TenantEventWrite[], now: string, gate?: 'book'): RawBuilder<unknown> {
  return sql`tenant_input as (
      select e.* from unnest(${column(events, 'tenant_id')}::uuid[], ${column(events, 'ordinal')}::int8[],
        ${column(events, 'type')}::text[], ${separatedTexts(column(events, 'rest'))}) as e(tenant_id, ordinal, type, rest)
        ${gate ? sql`cross join ${sql.ref(gate)}` : sql``}
    ), tenant_counts as (
      select tenant_id, count(*) as added from tenant_input group by tenant_id
    ), counted as (
      -- Tenants in id order, so two writers sharing tenants lock their counters in one order.
      insert into tenant_event_counters as c (tenant_id, last_sequence)
      select tenant_id, added from tenant_counts order by tenant_id
      on conflict (tenant_id) do update set last_sequence = c.last_sequence + excluded.last_sequence
      returning c.tenant_id, c.last_sequence
    ), tenant_written as (
      insert into tenant_events (tenant_id, sequence, type, created_at, payload)
      select e.tenant_id, k.last_sequence - n.added + e.ordinal, e.type, ${now}::timestamp(6),
        '{"sequence":' || (k.last_sequence - n.added + e.ordinal) || e.rest
      from tenant_input e join counted k on k.tenant_id = e.tenant_id join tenant_counts n on n.tenant_id = e.tenant_id
      returning sequence
    )`
}

/** A symbol's events, as a common table expression (`market_written`) of the matching pass's statement, gated on its `book`. */
export function marketEventAppend(symbol: string, events: readonly MarketEventWrite[], now: string): RawBuilder<unknown> {
  return sql`market_written as (
      insert into market_events (symbol, sequence, type, created_at, payload)
      select ${symbol}, m.sequence, m.type, ${now}::timestamp(6), m.payload
      from unnest(${column(events, 'sequence')}::int8[], ${column(events, 'type')}::text[],
        ${separatedTexts(column(events, 'payload'))}) as m(sequence, type, payload)
        cross join book
      returning sequence
    )`
}

/** Tenants' events in a statement of their own (a writer outside the matching pass: transfers). */
export async function appendTenantEvents(db: Db, events: readonly TenantEventWrite[], now: string): Promise<void> {
  if (events.length === 0) return
  await sql`with ${tenantEventAppend(events, now)} select count(*) from tenant_written`.execute(db)
}

/** NOTIFY of each payload, as an expression of the writer's statement (sent when it commits): how many were sent. */
export function notifyExpression(payloads: readonly string[]): RawBuilder<unknown> {
  return sql`(select count(pg_notify(${EVENTS_CHANNEL}, p)) from unnest(${payloads}::text[]) as p)`
}

/**
 * Wakes every process's streams of these keys once the surrounding transaction commits (PostgreSQL
 * delivers a NOTIFY only then, and drops it on rollback). Each payload is under NOTIFY's 8000 bytes.
 */
export async function notifyEvents(db: Db, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return
  await sql`select ${notifyExpression(payloads)}`.execute(db)
}
