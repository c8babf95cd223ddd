import type { ExecutionResult } from 'graphql'

/** A result as Yoga writes it: with its own JSON when it carries one. */
export type Serialisable = ExecutionResult & { stringify?: (result: ExecutionResult) => string }

/** A result with data and no errors or extensions: what may be kept, shared or answered before Yoga. */
export function isPlainSuccess(result: unknown): result is Serialisable & { data: Record<string, unknown> } {
  if (typeof result !== 'object' || result === null || Symbol.asyncIterator in result) return false
  const { data, errors, extensions } = result as ExecutionResult
  return !errors && !extensions && typeof data === 'object' && data !== null
}
