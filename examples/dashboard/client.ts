import type { TypedDocumentNode } from '@graphql-typed-document-node/core'
import { print } from 'graphql'

/** A GraphQL error as the service sends it: `extensions.code`, and for validation the REST `detail`. */
export interface GraphQLFailure {
  message: string
  extensions?: { code?: string; detail?: unknown }
}

export class GraphQLRequestError extends Error {
  constructor(readonly errors: GraphQLFailure[]) {
    super(errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('; '))
  }
}

/**
 * The smallest typed GraphQL client: a generated document fixes both the variables it takes and the
 * data it answers, so a wrong field or argument is a compile-time error.
 */
export function graphqlClient(endpoint: string, token: () => string | undefined = () => undefined) {
  return async function execute<Data, Variables>(document: TypedDocumentNode<Data, Variables>, variables: Variables): Promise<Data> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }
    const bearer = token()
    if (bearer) headers.authorization = `Bearer ${bearer}`
    const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query: print(document), variables }) })
    const result = (await response.json()) as { data?: Data | null; errors?: GraphQLFailure[] }
    if (result.errors?.length) throw new GraphQLRequestError(result.errors)
    if (!result.data) throw new Error(`no data (HTTP ${response.status})`)
    return result.data
  }
}
