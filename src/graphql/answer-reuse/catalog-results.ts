import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { RequestContext, RequestState } from '../../core/context.ts'
import { readsOnlyCatalog } from './catalog-fields.ts'
import { isPlainSuccess } from './plain-results.ts'
import { type CachedResult, ResultStore } from './result-store.ts'

// Longer variables are answered uncached rather than kept as a key.
const MAX_KEY_LENGTH = 2048

/**
 * What a catalog answer depends on, given by whoever owns the catalog (the symbols module): the
 * fields that read it are declared in the schema (catalog-fields.ts).
 */
export interface CatalogSource {
  /** Changes whenever the catalog may have; a result holds for the generation it was computed in. */
  readonly generation: number
  /** The scope every root field declared CATALOG_DATA requires of its caller, and nothing else. */
  readonly readScope: string
}

/** Told of every catalog answer the cache gives, with the JSON Yoga will write (RecordedAnswers records it). */
export interface CatalogAnswers {
  /** The results both the plugin and whoever answers before Yoga read and keep. */
  readonly results: CatalogResults
  noteCatalogAnswer(state: RequestState, json: string, generation: number, document: DocumentNode): void
}

/**
 * Catalog-only results by document, operation name and variables, while the catalog is unchanged;
 * shared by the plugin (inside Yoga) and RecordedAnswers (before it).
 */
export class CatalogResults {
  readonly #store: ResultStore
  readonly #documents = new WeakMap<DocumentNode, number | null>()
  #nextDocumentId = 0

  constructor(readonly catalog: CatalogSource) {
    this.#store = new ResultStore(catalog)
  }

  /** The catalog generation a result computed from now on holds for. */
  get generation(): number {
    return this.catalog.generation
  }

  /** The key of `document`'s result, or undefined when it is not catalog-only (or too long a key). */
  key(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: unknown): string | undefined {
    let id = this.#documents.get(document)
    if (id === undefined) this.#documents.set(document, (id = readsOnlyCatalog(schema, document) ? this.#nextDocumentId++ : null))
    if (id === null) return undefined
    const key = `${id}\n${operationName ?? ''}\n${JSON.stringify(variables ?? {})}`
    return key.length > MAX_KEY_LENGTH ? undefined : key
  }

  get(key: string): CachedResult | undefined {
    return this.#store.get(key)
  }

  /** Keeps a result without errors (and returns its JSON, as Yoga writes it); anything else is not kept. */
  keep(key: string, result: unknown, generation: number): string | undefined {
    if (!isPlainSuccess(result)) return undefined
    // What Yoga's result processor writes for a result without errors or extensions.
    const json = (result.stringify ?? JSON.stringify)(result)
    // The JSON alone is kept: a store of results' object graphs is what the garbage collector walked
    // most when each request brought a new document (docs/performance.md). The data, rarely read
    // again (a result Yoga writes uses `stringify`), is parsed back from it.
    this.#store.set(key, jsonResult(json), json.length, generation)
    return json
  }
}

/** A kept result: its JSON, and its data parsed from it when someone reads them. */
function jsonResult(json: string): CachedResult {
  return {
    get data() {
      return (JSON.parse(json) as { data: Record<string, unknown> }).data
    },
    stringify: () => json,
  }
}

/**
 * Serves a GraphQL operation that reads only the catalog from memory while the catalog is
 * unchanged: the result of its first execution, and the JSON Yoga made of it, per document,
 * operation name and variables. Entries go when the catalog's generation changes (for the symbol
 * catalog, on every process at the moment the REST symbol answers go).
 *
 * Only execution is skipped. The caller is authenticated, checked for the catalog's read scope and counted
 * against its rate limit exactly as the resolvers would, and logged as any request; a caller who
 * fails any of it is executed normally, so gets exactly the error it always got. Results with
 * errors are never kept. A hit ends the `onExecute` chain: register this plugin after every plugin
 * whose `onExecute` must see each request.
 */
export function catalogResultsPlugin(answers: CatalogAnswers): Plugin {
  const results = answers.results
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const key = results.key(args.schema, args.document, args.operationName, args.variableValues)
      if (key === undefined) return
      const generation = results.generation
      const cached = results.get(key)
      if (cached) {
        const ctx = args.contextValue as unknown as RequestContext
        if (await mayReadCatalog(ctx, results.catalog)) {
          answers.noteCatalogAnswer(ctx.state, cached.stringify(), generation, args.document)
          setResultAndStopExecution(cached)
        }
        return
      }
      return {
        onExecuteDone({ result, setResult }) {
          const json = results.keep(key, result, generation)
          if (json === undefined) return
          answers.noteCatalogAnswer((args.contextValue as unknown as RequestContext).state, json, generation, args.document)
          // Yoga writes this JSON rather than making it again.
          setResult({ ...(result as ExecutionResult), stringify: () => json } as ExecutionResult)
        },
      }
    },
  }
}

/** The check every catalog root field's resolver starts with; it counts the caller once per request. */
export async function mayReadCatalog(ctx: RequestContext, catalog: CatalogSource): Promise<boolean> {
  try {
    await ctx.auth.require(catalog.readScope)
    return true
  } catch {
    return false
  }
}
