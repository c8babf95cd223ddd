import { type SelectQueryBuilder, sql } from 'kysely'
import { z } from 'zod'

import { formatTimestamp } from './timestamps.ts'
import { customIssue, isoDateTime, queryInt } from './validation.ts'

/**
 * What every list shares (docs/api.md, "Conventions"): paging, datetime ranges, `order_by`, the envelope with
 * `heads`, and the common record fields. Modules add their own filters and columns.
 */
export const MAX_LIMIT = 100
/** Longer than any field name with its `-`; longer text is refused before it is looked up. */
const MAX_ORDER_BY_LENGTH = 64

/** Fields every record carries, in the order the reference lists them. */
export const COMMON_FIELDS = ['uid', 'created_at', 'updated_at', 'is_deleted', 'meta_data', 'user_id'] as const

export interface CommonRow {
  uid: string
  created_at: string
  updated_at: string
  is_deleted: boolean
  meta_data: Record<string, unknown> | null
  user_id: string
}

export interface CommonRecord {
  uid: string
  created_at: string
  updated_at: string
  is_deleted: boolean
  meta_data: Record<string, unknown> | null
  user_id: string
}

export function commonRecord(row: CommonRow): CommonRecord {
  return {
    uid: row.uid,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    is_deleted: row.is_deleted,
    meta_data: row.meta_data,
    user_id: row.user_id,
  }
}

const ACRONYMS = new Set(['id', 'uid', 'irr', 'url'])

/** `daily_fluctuation_price_limit_percent` → `Daily Fluctuation Price Limit Percent`, `uid` → `UID`. */
export function headLabel(field: string): string {
  return field
    .split('_')
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ')
}

export type Heads = Record<string, { en: string }>

export function makeHeads(fields: readonly string[]): Heads {
  return Object.fromEntries(fields.map((f) => [f, { en: headLabel(f) }]))
}

export interface ListEnvelope<T> {
  heads: Heads
  items: T[]
  total: number
  offset: number
  limit: number
}

/**
 * An integer query parameter. `queryInt` accepts text or numbers, which no JSON Schema says, so the
 * document is told the type (`override`, on the pipe: zod-openapi cannot render the default of a
 * transform; see docs/contracts.md). Parsing is unchanged.
 */
export const intParam = (min: number, max: number | undefined, fallback: number, description: string) =>
  queryInt
    .pipe(max === undefined ? z.number().int().min(min) : z.number().int().min(min).max(max))
    .meta({ override: { type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }), default: fallback }, description })
    .default(fallback)

const dateTimeParam = (description: string) => isoDateTime.optional().meta({ description, example: '2026-11-25T00:00:00Z' })

const pagingShape = {
  offset: intParam(0, undefined, 0, 'Records to skip.'),
  limit: intParam(1, MAX_LIMIT, MAX_LIMIT, 'Records per page, at most 100.'),
  created_at_from: dateTimeParam('Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`).'),
  created_at_to: dateTimeParam('Created at or before (ISO 8601 with a time and a zone).'),
  updated_at_from: dateTimeParam('Updated at or after (ISO 8601 with a time and a zone).'),
  updated_at_to: dateTimeParam('Updated at or before (ISO 8601 with a time and a zone).'),
}

/**
 * The query schema of one list: the common parameters plus `filters`, with `order_by` limited to
 * `orderable` (a `-` prefix sorts descending). Unknown parameters are `value_error.extra`.
 */
export function listQuerySchema<F extends z.ZodRawShape>(filters: F, orderable: readonly string[]) {
  const allowed = orderable.flatMap((f) => [f, `-${f}`])
  const orderBy = z
    .string()
    .max(MAX_ORDER_BY_LENGTH, { abort: true })
    .default('created_at')
    .superRefine((value, ctx) => {
      if (!orderable.includes(value.replace(/^-/, ''))) {
        customIssue(ctx, {
          type: 'type_error.enum',
          msg: `value is not a valid enumeration member; permitted: ${allowed.map((v) => `'${v}'`).join(', ')}`,
          ctx: { enum_values: allowed },
          input: value,
        })
      }
    })
  // The refinement is invisible to the document: it is told the values.
  const documentedOrderBy = orderBy.meta({
    override: { type: 'string', enum: allowed, default: 'created_at' },
    description: 'A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`.',
  })
  return z.strictObject({ ...pagingShape, order_by: documentedOrderBy, ...filters })
}

export interface ListQuery {
  offset: number
  limit: number
  created_at_from?: string | undefined
  created_at_to?: string | undefined
  updated_at_from?: string | undefined
  updated_at_to?: string | undefined
  order_by: string
}

/**
 * Applies the common datetime ranges to a query on `table` (which has created_at/updated_at and
 * is_deleted). Deleted records are never listed.
 */
export function whereCommon<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, table: string, query: ListQuery): QB {
  let q = qb.where(sql.ref(`${table}.is_deleted`), '=', false)
  if (query.created_at_from) q = q.where(sql.ref(`${table}.created_at`), '>=', query.created_at_from)
  if (query.created_at_to) q = q.where(sql.ref(`${table}.created_at`), '<=', query.created_at_to)
  if (query.updated_at_from) q = q.where(sql.ref(`${table}.updated_at`), '>=', query.updated_at_from)
  if (query.updated_at_to) q = q.where(sql.ref(`${table}.updated_at`), '<=', query.updated_at_to)
  return q as QB
}

/** `order_by` (already validated against the list's fields), then `uid` so pages are stable. */
function orderRows<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, table: string, query: ListQuery): QB {
  const descending = query.order_by.startsWith('-')
  const field = query.order_by.replace(/^-/, '')
  return qb.orderBy(sql.ref(`${table}.${field}`), descending ? 'desc' : 'asc').orderBy(sql.ref(`${table}.uid`), descending ? 'desc' : 'asc') as QB
}

export function orderAndPage<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, table: string, query: ListQuery): QB {
  return orderRows(qb, table, query).offset(query.offset).limit(query.limit) as QB
}

/**
 * As `orderAndPage`, with the offset and limit as one-row subqueries, values the planner cannot
 * see: it then plans to read only the first rows of the result (PostgreSQL assumes 10 % of them
 * for a LIMIT it cannot evaluate), which an index already in `order_by` order hands over without a
 * sort. Seen as constants, a page of 100 that outnumbers the matching rows the planner expects
 * (a table never analysed, a tenant that grew since) makes it read and sort every match instead.
 */
export function orderAndPageFirstRows<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, table: string, query: ListQuery): QB {
  return orderRows(qb, table, query)
    .offset(sql<number>`(select ${query.offset}::int8)`)
    .limit(sql<number>`(select ${query.limit}::int8)`) as QB
}

/** One page of rows and the number of all rows matching the list's filters. */
export interface PageRows<Row> {
  rows: Row[]
  total: number
}

/** What a list operation answers, whichever face renders it. */
export interface Page<Row> extends PageRows<Row> {
  offset: number
  limit: number
}

/** The number of matching rows carried on every row of the page, so page and total cost one statement. */
export const totalOverAll = sql<number>`count(*) over ()`.as('total_count')

export const countAll = sql<number>`count(*)`.as('count')

/**
 * Takes the total from the page's first row. The rows keep their `total_count` rather than being
 * copied without it (a rest spread per row cost ~1 µs, a tenth of rendering an order), since
 * records pick their fields by name. An empty page past the first says nothing about the total,
 * so only then is a separate count run.
 */
export async function withTotal<Row extends { total_count: number }>(
  rows: Row[],
  query: { offset: number },
  count: () => Promise<number>,
): Promise<PageRows<Omit<Row, 'total_count'>>> {
  const first = rows[0]
  if (first) return { rows, total: first.total_count }
  return { rows: [], total: query.offset === 0 ? 0 : await count() }
}
