import { type DocumentNode, execute, type ExecutionArgs, type ExecutionResult } from 'graphql'
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit'

/**
 * Executes documents the service already knows (validated by Yoga and the limits, answered once)
 * with a compiled executor (graphql-jit): one function per document and operation, built on its
 * second execution, that resolves the selection without graphql-js's per-field bookkeeping
 * (docs/performance.md, "GraphQL"). A document seen once is executed by graphql-js: compiling
 * costs more than running it once.
 *
 * The caller answers only results without errors from here and hands any other to Yoga, which
 * executes it again with graphql-js: every error a client sees (its message, path and location) is
 * graphql-js's, rendered by Yoga. The compiled functions live as long as their document: the
 * caller's cache of documents bounds them.
 */
export class CompiledQueries {
  readonly #compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>()
  readonly #seen = new WeakMap<DocumentNode, Set<string>>()

  async execute(args: ExecutionArgs): Promise<ExecutionResult> {
    const compiled = this.#compiledFor(args)
    if (!compiled) return execute(args)
    return compiled.query(args.rootValue, args.contextValue, args.variableValues) as Promise<ExecutionResult> | ExecutionResult
  }

  #compiledFor(args: ExecutionArgs): CompiledQuery | null {
    const name = args.operationName ?? ''
    const byName = this.#compiled.get(args.document)
    const known = byName?.get(name)
    if (known !== undefined) return known
    // The first execution of a document runs uncompiled; the second compiles it.
    let seen = this.#seen.get(args.document)
    if (!seen) this.#seen.set(args.document, (seen = new Set()))
    if (!seen.has(name)) {
      seen.add(name)
      return null
    }
    const built = compileQuery(args.schema, args.document, args.operationName ?? undefined, { disablingCapturingStackErrors: true })
    const compiled = isCompiledQuery(built) ? built : null
    if (byName) byName.set(name, compiled)
    else this.#compiled.set(args.document, new Map([[name, compiled]]))
    return compiled
  }
}
