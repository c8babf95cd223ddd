import type { GraphQLParams, Plugin } from 'graphql-yoga'

import { isAdmin, type Principal } from '../core/auth.ts'
import { AppError, echoed } from '../core/errors.ts'

/** What a request's params may carry besides GraphQL's own: the id of a trusted document. */
type ParamsWithDocumentId = GraphQLParams & { documentId?: unknown }

/**
 * The trusted document a request names: its `documentId` (in a GET request's query string too,
 * which Yoga's GET parser does not carry over), or, without a query, Apollo's
 * `extensions.persistedQuery.sha256Hash` (the hex alone), as Apollo Client's persisted-queries
 * link sends it.
 */
function documentIdOf(params: ParamsWithDocumentId, request: Request): unknown {
  if (params.documentId != null) return params.documentId
  if (request.method === 'GET') {
    const fromUrl = new URL(request.url).searchParams.get('documentId')
    if (fromUrl !== null) return fromUrl
  }
  // Apollo sends the text with the hash after a PERSISTED_QUERY_NOT_FOUND: that is text, as any other.
  const persisted = params.query == null ? (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery : undefined
  if (persisted && typeof persisted === 'object' && persisted.sha256Hash != null)
    return typeof persisted.sha256Hash === 'string' ? `sha256:${persisted.sha256Hash}` : persisted.sha256Hash
  return undefined
}

export interface TrustedDocuments {
  /** `sha256:<hex>` → document text (see `GRAPHQL_PERSISTED_DOCUMENTS`); none: every `documentId` is unknown. */
  documents: ReadonlyMap<string, string> | undefined
  /** Refuse document text unless the caller is an admin (`GRAPHQL_TRUSTED_DOCUMENTS_ONLY`). */
  trustedOnly: boolean
}

/**
 * Resolves one document id sent in place of the document (a GraphQL request's `documentId`, or a
 * subscribe message's), or decides whether document text may run. Both faces (HTTP and WebSocket)
 * go through it, so they accept and refuse the same requests (docs/api.md, "Trusted documents").
 */
export class TrustedDocumentPolicy {
  constructor(private readonly options: TrustedDocuments) {}

  get trustedOnly(): boolean {
    return this.options.trustedOnly
  }

  /** The text of a known document id; 400 `PERSISTED_QUERY_NOT_FOUND` otherwise. */
  resolve(documentId: unknown): string {
    if (typeof documentId !== 'string') throw new AppError('bad_request', 'documentId must be a string: "sha256:" and the hex sha256 of the document')
    const document = this.options.documents?.get(documentId)
    if (document === undefined) throw new AppError('persisted_query_not_found', `Persisted document not found: ${echoed(documentId, 80)}`)
    return document
  }

  /**
   * Whether document text may run for the caller `principal` gives: always, unless only trusted
   * documents are served; then for admins only (400 `PERSISTED_QUERY_ONLY` for anyone else,
   * including a caller without a valid token). A refusal for any other reason (a rate limit, the
   * database) is passed on as it is.
   */
  async admitText(principal: () => Promise<Principal>): Promise<void> {
    if (!this.options.trustedOnly) return
    let caller: Principal | undefined
    try {
      caller = await principal()
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'unauthenticated') throw error
    }
    if (!caller || !isAdmin(caller)) throw new AppError('persisted_query_only', 'Only persisted documents are accepted: send a documentId instead of a query')
  }
}

/**
 * Trusted documents on Yoga's HTTP face: a request's `documentId` is replaced by the document it
 * names before Yoga checks, parses or validates anything (so the rest of the pipeline, its caches
 * and limits included, sees an ordinary request), and document text is refused unless the policy
 * admits it. `principal` authenticates the request with the context its operation will run with,
 * so the token is verified and counted once; `admittedText` is told of text admitted while only
 * trusted documents are served (an admin's), whose answer must not be repeated to anyone else.
 */
export function trustedDocumentsPlugin(
  policy: TrustedDocumentPolicy,
  principal: (request: Request, serverContext: object) => Promise<Principal>,
  admittedText: (serverContext: object) => void,
): Plugin {
  return {
    async onParams({ params, request, setParams, context }) {
      const { documentId: _sent, ...rest } = params as ParamsWithDocumentId
      const documentId = documentIdOf(params as ParamsWithDocumentId, request)
      if (documentId != null) {
        if (rest.query != null) throw new AppError('bad_request', 'Send either query or documentId, not both')
        setParams({ ...rest, query: policy.resolve(documentId) })
        return
      }
      // Without a query Yoga answers "Must provide query string." itself.
      if (!policy.trustedOnly || rest.query == null) return
      await policy.admitText(() => principal(request, context))
      admittedText(context)
    },
  }
}
