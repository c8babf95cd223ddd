import type { TypedDocumentNode } from '@graphql-typed-document-node/core'

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
 * The id the service knows a document by (`sha256:<hex>`): the client preset embeds it in each
 * generated document (`__meta__.hash`), and persisted-documents.json maps it to the document's text.
 */
export function documentIdOf(document: TypedDocumentNode<unknown, never>): string {
  const hash = (document as { __meta__?: { hash?: unknown } }).__meta__?.hash
  if (typeof hash !== 'string') throw new Error('the document carries no persisted-document hash: run npm run codegen')
  return hash
}

/**
 * The smallest typed GraphQL client: a generated document fixes both the variables it takes and the
 * data it answers, so a wrong field or argument is a compile-time error. It sends the document's
 * id, never its text (trusted documents: a service with GRAPHQL_TRUSTED_DOCUMENTS_ONLY runs only these).
 */
export function graphqlClient(endpoint: string, token: () => string | undefined = () => undefined) {
  return async function execute<Data, Variables>(document: TypedDocumentNode<Data, Variables>, variables: Variables): Promise<Data> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }
    const bearer = token()
    if (bearer) headers.authorization = `Bearer ${bearer}`
    const body = JSON.stringify({ documentId: documentIdOf(document as TypedDocumentNode<unknown, never>), variables })
    const response = await fetch(endpoint, { method: 'POST', headers, body })
    const result = (await response.json()) as { data?: Data | null; errors?: GraphQLFailure[] }
    if (result.errors?.length) throw new GraphQLRequestError(result.errors)
    if (!result.data) throw new Error(`no data (HTTP ${response.status})`)
    return result.data
  }
}
