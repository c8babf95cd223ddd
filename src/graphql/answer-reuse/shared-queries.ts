import { type DocumentNode, type ExecutionArgs, type ExecutionResult, Kind, type OperationDefinitionNode } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { RequestContext } from '../../core/context.ts'
import { ReadCoalescer } from '../../core/read-coalescer.ts'
import { variablesCoerce } from '../variables.ts'
import { isPlainSuccess } from './plain-results.ts'

// Longer variables are executed alone rather than kept as a key.
const MAX_KEY_LENGTH = 2048

/** A result several requests answer with: its JSON (and its UTF-8 bytes) made once, by whichever request's answer is written first. */
export type SharedResult = ExecutionResult & { stringify: () => string; bytes: () => Buffer }

type PromiseOrValue<T> = Promise<T> | T

/**
 * Identical queries of one caller share one execution and one JSON rendering, as identical REST
 * lists share one statement and one rendering (docs/performance.md): a dashboard's workers polling
 * `orders(limit: 100)` with one token otherwise executed 100 × 17 fields and wrote 30 KB of JSON
 * per request. "Identical" is the same access token (its `jti`, so the same client, tenant, scopes
 * and roles), document, operation name and variables. A request joins only an execution that has
 * not started yet (ReadCoalescer), so it still sees every write acknowledged before it asked.
 *
 * Only single-operation queries whose root fields are all among `rootFields`, with no directive or
 * fragment at the root, are shared: each of those fields starts by authorising the caller, so
 * authenticating every caller here, before the shared execution, refuses each as its own resolvers
 * would have (every request was counted before it was validated: graphql-calls-plugin.ts).
 * Variables that do not coerce are left to graphql-js's answer. A result with errors is not
 * shared: every request that waited for it executes on its own, and gets the errors it always got.
 */
export class SharedQueries {
  readonly #shareable: ReadonlySet<string>
  readonly #documents = new WeakMap<DocumentNode, { id: number; operation: OperationDefinitionNode } | null>()
  #nextDocumentId = 0
  readonly #runs = new ReadCoalescer<ExecutionResult | undefined>()

  constructor(rootFields: readonly string[]) {
    this.#shareable = new Set(rootFields)
  }

  /**
   * The result of `args` as `executeFn` makes it, shared with identical requests waiting for the
   * same execution; undefined when the request is not shared (not shareable, variables that do
   * not coerce, a refused caller, a result with errors), and the caller executes it alone.
   */
  async run(args: ExecutionArgs, executeFn: (args: ExecutionArgs) => PromiseOrValue<ExecutionResult>): Promise<SharedResult | undefined> {
    const query = this.#query(args.document)
    const ctx = args.contextValue as RequestContext
    if (!query || !ctx.auth.hasCredentials) return undefined
    if (!variablesCoerce(args.schema, query.operation, args.variableValues as Record<string, unknown> | undefined)) return undefined
    let jti: string
    try {
      jti = (await ctx.auth.principal()).jti
    } catch {
      // Refused callers get their error from the resolvers, as always (the refusal is remembered, counted once).
      return undefined
    }
    const key = `${jti}\n${query.id}\n${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`
    if (key.length > MAX_KEY_LENGTH) return undefined
    return (await this.#runs.read(key, async () => shared(await executeFn(args)))) as SharedResult | undefined
  }

  /** The same sharing inside Yoga. Register after every plugin whose `onExecute` must see each request: a shared result ends the chain. */
  plugin(): Plugin {
    return {
      onExecute: async ({ args, executeFn, setResultAndStopExecution }) => {
        const result = await this.run(args as ExecutionArgs, executeFn as (args: ExecutionArgs) => PromiseOrValue<ExecutionResult>)
        if (result) setResultAndStopExecution(result)
      },
    }
  }

  #query(document: DocumentNode) {
    let entry = this.#documents.get(document)
    if (entry === undefined) {
      const operation = sharedOperation(document, this.#shareable)
      this.#documents.set(document, (entry = operation ? { id: this.#nextDocumentId++, operation } : null))
    }
    return entry
  }
}

/** The operation of a document that may be shared, or undefined. */
function sharedOperation(document: DocumentNode, shareable: ReadonlySet<string>): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
  const operation = operations[0]
  if (operations.length !== 1 || !operation || operation.operation !== 'query' || operation.directives?.length) return undefined
  const plain = operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && !s.directives?.length && shareable.has(s.name.value))
  return plain ? operation : undefined
}

/** The result to share, with its JSON made once; undefined for anything but plain data. */
function shared(result: unknown): SharedResult | undefined {
  if (!isPlainSuccess(result)) return undefined
  const { data } = result
  let json: string | undefined
  // What Yoga's result processor writes for a result without errors or extensions.
  let bytes: Buffer | undefined
  const stringify = () => (json ??= JSON.stringify({ data }))
  return { data, stringify, bytes: () => (bytes ??= Buffer.from(stringify())) }
}
