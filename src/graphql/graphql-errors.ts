import { GraphQLError } from 'graphql'

import { AppError, kinds, toAppError } from '../core/errors.ts'

/**
 * Renders any error reaching Yoga as a GraphQL error carrying the REST information:
 * `extensions.code`, `extensions.http.status`, `extensions.error`, and for validation the REST
 * `detail` array. Unexpected errors are masked (no message, stack or SQL leaves the process).
 */
export function toGraphQLError(error: unknown): GraphQLError {
  const original: unknown = error instanceof GraphQLError ? error.originalError : error
  // Errors GraphQL itself raised (syntax, validation against the schema) pass through.
  if (error instanceof GraphQLError && (!original || original === error || isGraphQLUserError(original as Error))) return error
  const appError = toAppError(original)
  const info = kinds[appError.kind]
  const extensions: Record<string, unknown> = {
    code: info.graphqlCode,
    error: appError.code,
    http: { status: appError.status, ...(appError.headers ? { headers: appError.headers } : {}) },
  }
  if (appError.detail) extensions.detail = appError.detail
  const gqlError = error instanceof GraphQLError ? error : undefined
  return new GraphQLError(appError.message, {
    nodes: gqlError?.nodes,
    source: gqlError?.source,
    positions: gqlError?.positions,
    path: gqlError?.path,
    originalError: appError,
    extensions,
  })
}

function isGraphQLUserError(error: Error): boolean {
  return error instanceof GraphQLError && !(error instanceof AppError)
}

export function originalAppError(error: GraphQLError): AppError | undefined {
  return error.originalError instanceof AppError ? error.originalError : undefined
}
