import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { RequestContext, RequestState, Services } from '../../../../core/context.ts'
import { SYMBOLS_READ } from '../symbols.ts'
import { readsOnlyCatalog } from './catalog-documents.ts'
import { type CachedResult, ResultStore } from './result-store.ts'

// Longer variables are answered uncached rather than kept as a key.
const MAX_KEY_LENGTH = 2048

/**
 * Serves a GraphQL operation that reads only the symbol catalog from memory while the catalog is
 * unchanged: the result of its first execution, and the JSON Yoga made of it, per document,
 * operation name and variables. Entries go when SymbolsCache sees the catalog change (its
 * generation), on every process at the moment the REST symbol answers go.
 *
 * Only execution is skipped. The caller is authenticated, checked for `symbols:read` and counted
 * against its rate limit exactly as the resolvers would, and logged as any request; a caller who
 * fails any of it is executed normally, so gets exactly the error it always got. Results with
 * errors are never kept. A hit ends the `onExecute` chain: register this plugin after every plugin
 * whose `onExecute` must see each request.
 */
/** Told of every catalog answer the cache gives, with the JSON Yoga will write (RecordedAnswers records it). */
export interface CatalogAnswers {
  noteCatalogAnswer(state: RequestState, json: string, generation: number): void
}

export function symbolsResultCachePlugin(services: Pick<Services, 'symbolsCache'>, answers: CatalogAnswers): Plugin {
  const store = new ResultStore(services.symbolsCache)
  const documents = new WeakMap<DocumentNode, number | null>()
  let nextDocumentId = 0
  const documentId = (schema: GraphQLSchema, document: DocumentNode) => {
    let id = documents.get(document)
    if (id === undefined) documents.set(document, (id = readsOnlyCatalog(schema, document) ? nextDocumentId++ : null))
    return id
  }
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const id = documentId(args.schema, args.document)
      if (id === null) return
      const key = `${id}\n${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`
      if (key.length > MAX_KEY_LENGTH) return
      const generation = services.symbolsCache.generation
      const cached = store.get(key)
      if (cached) {
        const ctx = args.contextValue as unknown as RequestContext
        if (await mayReadCatalog(ctx)) {
          answers.noteCatalogAnswer(ctx.state, cached.stringify(), generation)
          setResultAndStopExecution(cached)
        }
        return
      }
      return {
        onExecuteDone({ result }) {
          if (!isPlainSuccess(result)) return
          // What Yoga's result processor writes for a result without errors or extensions.
          const json = (result.stringify ?? JSON.stringify)(result)
          store.set(key, { data: result.data, stringify: () => json }, json.length, generation)
          answers.noteCatalogAnswer((args.contextValue as unknown as RequestContext).state, json, generation)
        },
      }
    },
  }
}

/** The check every catalog resolver starts with; it counts the caller once per request. */
export async function mayReadCatalog(ctx: RequestContext): Promise<boolean> {
  try {
    await ctx.auth.require(SYMBOLS_READ)
    return true
  } catch {
    return false
  }
}

type Serialisable = ExecutionResult & { stringify?: (result: ExecutionResult) => string }

function isPlainSuccess(result: unknown): result is Serialisable & { data: CachedResult['data'] } {
  if (typeof result !== 'object' || result === null || Symbol.asyncIterator in result) return false
  const { data, errors, extensions } = result as ExecutionResult
  return !errors && !extensions && typeof data === 'object' && data !== null
}
