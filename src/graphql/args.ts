import { AppError } from '../core/errors.ts'
import { builder } from './builder.ts'

/** `createdAtFrom` → `created_at_from`. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const SORT_DIRECTIONS = ['asc', 'desc'] as const
export type SortDirection = (typeof SORT_DIRECTIONS)[number]

const SortDirectionEnum = builder.enumType('SortDirection', { values: SORT_DIRECTIONS, description: 'Ascending (the default) or descending.' })

/** A list's `orderBy` argument: a field of that list (an enum, in REST spelling) and a direction. */
export interface OrderByArg {
  field: string
  direction?: SortDirection | null
}

/**
 * The typed `orderBy` input of one list (`<Name>OrderBy { field: <Name>SortField!, direction }`),
 * its fields the ones the list's REST `order_by` accepts, so a generated client catches a wrong
 * field at compile time. An input object rather than an enum of field-direction pairs: one
 * `SortDirection` for every list, and half as many enum values (docs/contracts.md).
 */
export function orderByInput(name: string, fields: readonly string[]) {
  const field = builder.enumType(`${name}SortField`, { values: fields, description: `A field ${name.toLowerCase()}s can be sorted by (REST spelling).` })
  return builder.inputType(`${name}OrderBy`, {
    description: 'Sort by one field; ties are broken by uid.',
    fields: (t) => ({
      field: t.field({ type: field, required: true }),
      direction: t.field({ type: SortDirectionEnum, defaultValue: 'asc' }),
    }),
  })
}

export interface ListArgs {
  filter?: object | null
  offset?: number | null
  limit?: number | null
  orderBy?: OrderByArg | null
}

/**
 * GraphQL list arguments → the REST query object, values as text as in a URL, so both faces go
 * through one schema and report the same `detail` (`loc: ["query", "limit"]`, `input: "101"`) for
 * the same mistake. `orderBy` becomes REST's `order_by` (`-` prefix for descending) here, the one
 * place the two spellings meet.
 */
export function listQueryFromArgs({ filter, offset, limit, orderBy }: ListArgs): Record<string, unknown> {
  const query: Record<string, unknown> = {}
  for (const [key, value] of Object.entries({ ...filter, offset, limit })) {
    // A list filter becomes REST's comma-separated text; an empty list filters nothing.
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) query[snakeCase(key)] = String(value)
  }
  if (orderBy) query.order_by = `${orderBy.direction === 'desc' ? '-' : ''}${orderBy.field}`
  return query
}

/** A single-record query answers null for what REST answers 404. */
export async function nullIfNotFound<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise
  } catch (error) {
    if (error instanceof AppError && error.kind === 'not_found') return null
    throw error
  }
}
