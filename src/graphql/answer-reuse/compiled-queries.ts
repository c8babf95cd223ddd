import { type DocumentNode, execute, type ExecutionArgs, type ExecutionResult, Kind, type SelectionSetNode } from 'graphql'
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit'

// Runs of a document here before it is compiled: compiling costs several runs' worth of time.
const RUNS_BEFORE_COMPILING = 2
// Fields as executed (fragments expanded) beyond which a document is never compiled: compiling
// takes time in proportion (~2 ms for a dashboard's 35-field page, ~30 ms for 900 fields) and
// holds the event loop, so a caller must not be able to make it compile large documents.
const MAX_COMPILED_FIELDS = 200

/**
 * Executes documents the service already knows (validated by Yoga and the limits, answered once)
 * with a compiled executor (graphql-jit): one function per document and operation, built after
 * its first runs here, that resolves the selection without graphql-js's per-field bookkeeping
 * (docs/performance.md, "What was done"). Until then, and for documents with more than
 * MAX_COMPILED_FIELDS fields as executed, graphql-js executes them.
 *
 * The caller answers only results without errors from here and hands any other to Yoga, which
 * executes it again with graphql-js: every error a client sees (its message, path and location) is
 * graphql-js's, rendered by Yoga. The compiled functions live as long as their document: the
 * caller's cache of documents bounds them.
 */
export class CompiledQueries {
  readonly #compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>()
  readonly #runs = new WeakMap<DocumentNode, Map<string, number>>()

  /** `onRun` is told of every execution, and whether it ran compiled (the service counts them in its metrics). */
  constructor(private readonly onRun: (compiled: boolean) => void = () => {}) {}

  async execute(args: ExecutionArgs): Promise<ExecutionResult> {
    const compiled = this.#compiledFor(args)
    this.onRun(compiled !== null)
    if (!compiled) return execute(args)
    return compiled.query(args.rootValue, args.contextValue, args.variableValues) as Promise<ExecutionResult> | ExecutionResult
  }

  #compiledFor(args: ExecutionArgs): CompiledQuery | null {
    const name = args.operationName ?? ''
    const known = this.#compiled.get(args.document)?.get(name)
    if (known !== undefined) return known
    let runs = this.#runs.get(args.document)
    if (!runs) this.#runs.set(args.document, (runs = new Map()))
    const count = runs.get(name) ?? 0
    if (count < RUNS_BEFORE_COMPILING) {
      runs.set(name, count + 1)
      return null
    }
    runs.delete(name)
    let compiled: CompiledQuery | null = null
    if (fieldsAsExecuted(args.document, args.operationName, MAX_COMPILED_FIELDS) <= MAX_COMPILED_FIELDS) {
      const built = compileQuery(args.schema, args.document, args.operationName ?? undefined, { disablingCapturingStackErrors: true })
      if (isCompiledQuery(built)) compiled = built
    }
    let byName = this.#compiled.get(args.document)
    if (!byName) this.#compiled.set(args.document, (byName = new Map()))
    byName.set(name, compiled)
    return compiled
  }
}

/**
 * The fields of an operation as executed, fragments expanded where they are spread, counted up to
 * just past `max` (the walk stops there, so a document that expands without end costs `max` steps).
 */
export function fieldsAsExecuted(document: DocumentNode, operationName: string | null | undefined, max: number): number {
  const fragments = new Map<string, SelectionSetNode>()
  let operation: SelectionSetNode | undefined
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet)
    else if (definition.kind === Kind.OPERATION_DEFINITION && (operationName ? definition.name?.value === operationName : !operation))
      operation = definition.selectionSet
  }
  let count = 0
  const walk = (selectionSet: SelectionSetNode, depth: number): void => {
    // Validated documents have no fragment cycles; the depth bound keeps the walk finite regardless.
    if (depth > 64) count = max + 1
    for (const selection of selectionSet.selections) {
      if (count > max) return
      if (selection.kind === Kind.FIELD) {
        count++
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1)
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, depth + 1)
      else {
        const fragment = fragments.get(selection.name.value)
        if (fragment) walk(fragment, depth + 1)
      }
    }
  }
  if (operation) walk(operation, 0)
  return count
}
