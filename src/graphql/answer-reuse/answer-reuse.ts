import type { IncomingMessage, ServerResponse } from 'node:http'

import type { ExecutionArgs, ExecutionResult, GraphQLSchema } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { Metrics } from '../../observability/metrics.ts'
import { catalogResultsPlugin, type CatalogSource } from './catalog-results.ts'
import { CompiledQueries } from './compiled-queries.ts'
import { type RecordedAnswerHooks, RecordedAnswers } from './recorded-answers.ts'
import { candidateLength } from './request-body.ts'
import { SharedQueries } from './shared-queries.ts'

export interface AnswerReuseOptions {
  schema: GraphQLSchema
  /** The catalog whose answers are kept and recorded whole (catalog-fields.ts says which fields read it). */
  catalog: CatalogSource
  metrics: Pick<Metrics, 'graphqlAnsweredFromRecording' | 'graphqlAnsweredKnownDocument' | 'graphqlKnownDocumentRun'>
  /** Root fields whose identical queries, by one token, share an execution: each authorises its caller first. */
  sharedQueryFields: readonly string[]
  hooks: RecordedAnswerHooks
}

/**
 * Every way a GraphQL answer is reused rather than made again (docs/performance.md, "What was
 * done"): catalog results (catalog-results.ts), answers recorded and repeated before Yoga
 * (recorded-answers.ts), identical concurrent queries sharing one execution (shared-queries.ts),
 * and known documents executed compiled (compiled-queries.ts).
 */
export class AnswerReuse {
  readonly #recorded: RecordedAnswers
  readonly #shared: SharedQueries

  constructor(private readonly options: AnswerReuseOptions) {
    const { metrics } = options
    this.#shared = new SharedQueries(options.sharedQueryFields)
    const compiled = new CompiledQueries((isCompiled) => metrics.graphqlKnownDocumentRun(isCompiled))
    // Known documents answered before Yoga: shared as inside Yoga, else compiled.
    const executeKnown = async (args: ExecutionArgs): Promise<ExecutionResult> =>
      (await this.#shared.run(args, (a) => compiled.execute(a))) ?? compiled.execute(args)
    this.#recorded = new RecordedAnswers(options.catalog, metrics, options.schema, executeKnown)
  }

  /**
   * Yoga's plugins, to be its last: a catalog result or a shared one ends the `onExecute` chain,
   * and the recording sees every query answered without errors.
   */
  plugins(): Plugin[] {
    return [this.#recorded.plugin(), catalogResultsPlugin(this.#recorded), this.#shared.plugin()]
  }

  /**
   * Answers a GraphQL request before Yoga, or hands it on (`hooks.yoga`) with whatever was read of
   * it; undefined, having done nothing, for a request that Yoga must read itself.
   */
  serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | undefined {
    const length = candidateLength(req, url)
    return length === undefined ? undefined : this.#recorded.serve(req, res, length, this.options.hooks)
  }
}
