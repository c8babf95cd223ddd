import { AppError } from '../core/errors.ts'

/** `createdAtFrom` → `created_at_from`. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export interface ListArgs {
  filter?: object | null
  offset?: number | null
  limit?: number | null
  orderBy?: string | null
}

/**
 * GraphQL list arguments → the REST query object, values as text as in a URL, so both faces go
 * through one schema and report the same `detail` (`loc: ["query", "limit"]`, `input: "101"`) for
 * the same mistake.
 */
export function listQueryFromArgs({ filter, offset, limit, orderBy }: ListArgs): Record<string, unknown> {
  const query: Record<string, unknown> = {}
  for (const [key, value] of Object.entries({ ...filter, offset, limit, orderBy })) {
    if (value !== null && value !== undefined) query[snakeCase(key)] = String(value)
  }
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
