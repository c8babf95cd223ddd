import type { IncomingMessage, ServerResponse } from 'node:http'

import { type DocumentNode, type ExecutionArgs, type ExecutionResult, getOperationAST, type GraphQLSchema } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { RequestContext, RequestState } from '../../core/context.ts'
import { PER_REQUEST_HEADERS } from '../../http/request-log.ts'
import type { Metrics } from '../../observability/metrics.ts'
import { GRAPHQL_LIMITS } from '../limits.ts'
import { variablesCoerce } from '../variables.ts'
import { type CatalogAnswers, CatalogResults, type CatalogSource, mayReadCatalog } from './catalog-results.ts'
import { type AliasedKeys, aliasedKeys, documentForm, onlyTopLevel, renameKeys } from './document-forms.ts'
import { isPlainSuccess } from './plain-results.ts'
import { type Params, plainParams, readBody, withBody } from './request-body.ts'
import { ResultStore } from './result-store.ts'
import type { SharedResult } from './shared-queries.ts'

const SHAPES_GENERATION = { generation: 0 } as const

// The media types whose body Yoga writes as the result's JSON and nothing else.
const JSON_BODY = /^application\/(json|graphql-response\+json)(;|$)/
// Request bodies Yoga reads as JSON GraphQL parameters.
const JSON_REQUEST = /^application\/json(;|$)/i

/**
 * Yoga's answer to a catalog document, less what varies with the variables: the headers without
 * `Content-Length`, the parsed and validated document, and the operation name it logged.
 */
interface Shape {
  headers: Record<string, string>
  document: DocumentNode
  operationName: string | undefined
}

/**
 * A known document's shape, found by its form: a document of that form answered without errors,
 * its numbered aliases, and where they are in its result (computed when first needed; null when
 * the document selects too much to map).
 */
interface Form {
  shape: Shape
  aliases: readonly string[]
  keys?: AliasedKeys | null
}

/** A request's document, when it is of a known form but not the known document's text. */
interface OfForm {
  form: Form
  /** This document's numbered aliases, by the form's numbers. */
  aliases: readonly string[]
}

/** A catalog result's data, each top-level key with its value's JSON (to answer a document whose aliases are all at the top). */
type TopLevelJson = [key: string, json: string][]

interface Recording {
  headers: Record<string, string>
  body: Buffer
  operationName: string | undefined
}

/** What Yoga gets, as server context, with a request read here but not answered here. */
export type RecordingHandoff = {
  /** Opened when the request arrived; Yoga's request log and context adopt it. */
  requestState: RequestState
  /** Present when the caller was already authenticated (and counted) here. */
  requestContext?: RequestContext
  /** Where Yoga's answer is recorded, if the result cache gives it; absent for an incomplete body. */
  recordingKey?: string
  /** Where the answer's shape (all but the variables' part) is recorded, for a JSON body of plain parameters. */
  shapeKey?: string
  /** Where the shape is recorded by its document's form too, with the document's numbered aliases. */
  form?: { key: string; aliases: readonly string[] }
}

export interface RecordedAnswerHooks {
  /** Opens the request's state as it arrives (its id, address, start time) and its context. */
  open: (req: IncomingMessage) => RequestContext
  /** Admits the caller before its body is read: a missing or bad token counts against its address (429 over it). */
  admit: (ctx: RequestContext) => Promise<void>
  /** Counts the request by what its document asks, as Yoga's pipeline would before validating it. */
  count: (ctx: RequestContext, document: DocumentNode, operationName: string | null | undefined) => Promise<void>
  /** Adds the per-request headers to a recorded answer and logs it (as Yoga's would be). */
  finish: (state: RequestState, status: number, headers: Record<string, string>) => void
  /** Hands the request on (its body already read), its context given a watch of `res` as Yoga's own contexts have. */
  yoga: (req: IncomingMessage, res: ServerResponse, handoff: RecordingHandoff) => void
}

/**
 * Answers a GraphQL request before Yoga when it repeats one that the catalog result cache
 * (catalogResultsPlugin) answered: the same body bytes, `Accept`, `Content-Type` and `Origin`
 * (all that Yoga reads to choose its answer) while the catalog is unchanged. Yoga's answer to the
 * first such request is recorded, headers and body, and repeated: the same document, operation and
 * variables validate and execute the same way, so only Yoga's per-request pipeline is skipped.
 *
 * The caller is still authenticated, checked for the catalog's read scope and counted against its rate
 * limit, and the answer gets its own request id, RateLimit-* headers, log line and metrics. A
 * request that is not a repeat, or whose caller fails any check, is handed to Yoga with the same
 * state and context, so it is answered, counted and logged exactly once, as it always was.
 *
 * Besides whole answers it keeps *shapes*: for any query Yoga answered without errors, its headers
 * (less `Content-Length`) and validated document, by `Accept`, `Content-Type`, `Origin`, operation
 * name and query text. A request with a known shape and new variables is executed here, by the
 * catalog result cache for a catalog-only document, else by `executeQuery` for a caller with a
 * token; only a result without errors is answered here (docs/performance.md, "What was done").
 * A shape is found by its document's form too: a document that differs from a known one only in
 * its aliases' names, whitespace, commas and comments is executed as the known one, and its result
 * written with this document's keys (docs/performance.md, "Documents of one form").
 */
export class RecordedAnswers implements CatalogAnswers {
  readonly results: CatalogResults
  readonly #recordings: ResultStore<Recording>
  readonly #shapes: ResultStore<Shape>
  readonly #forms: ResultStore<Form>
  readonly #topLevelJson: ResultStore<TopLevelJson>
  // A query Yoga answered without errors: its document, the catalog generation, and for a
  // catalog-only result the JSON the result cache answered with (the only answers recorded whole).
  readonly #answers = new WeakMap<RequestState, { json?: string; generation: number; document: DocumentNode }>()

  /**
   * `executeQuery` executes any other known query document for one caller (compiled, and shared
   * with identical concurrent requests where that applies); only its results without errors are
   * answered here.
   */
  constructor(
    private readonly catalog: CatalogSource,
    private readonly metrics: Pick<Metrics, 'graphqlAnsweredFromRecording' | 'graphqlAnsweredKnownDocument'>,
    private readonly schema: GraphQLSchema,
    private readonly executeQuery: (args: ExecutionArgs) => Promise<ExecutionResult>,
  ) {
    this.results = new CatalogResults(catalog)
    this.#recordings = new ResultStore(catalog)
    // A shape (headers and validated document) holds whatever the catalog does: one generation, forever.
    this.#shapes = new ResultStore(SHAPES_GENERATION)
    this.#forms = new ResultStore(SHAPES_GENERATION)
    this.#topLevelJson = new ResultStore(catalog)
  }

  /** Called by the result cache when it answers a request with a catalog-only result. */
  noteCatalogAnswer(state: RequestState, json: string, generation: number, document: DocumentNode): void {
    this.#answers.set(state, { json, generation, document })
  }

  async serve(req: IncomingMessage, res: ServerResponse, length: number, hooks: RecordedAnswerHooks): Promise<void> {
    const requestContext = hooks.open(req)
    const requestState = requestContext.state
    try {
      await hooks.admit(requestContext)
    } catch {
      // Refused before its body is read: Yoga answers the refusal (remembered, counted once).
      return hooks.yoga(req, res, { requestState, requestContext })
    }
    const { body, complete } = await readBody(req, length)
    // The client went away mid-body: Yoga answers (and logs) the part that came, as it always did.
    if (!complete) return hooks.yoga(withBody(req, body), res, { requestState, requestContext })
    // What Yoga's answer depends on besides the body.
    const headersKey = `${req.headers.accept ?? ''}\n${req.headers['content-type'] ?? ''}\n${req.headers.origin ?? ''}\n`
    const recordingKey = `${headersKey}${body.toString('latin1')}`
    const recording = this.#recordings.get(recordingKey)
    if (recording) {
      if (await mayReadCatalog(requestContext, this.catalog)) return this.#answerFromRecording(res, requestState, recording, hooks)
      return hooks.yoga(withBody(req, body), res, { requestState, requestContext, recordingKey })
    }
    const params = JSON_REQUEST.test(req.headers['content-type'] ?? '') ? plainParams(body) : undefined
    const shapePrefix = params && `${headersKey}${JSON.stringify(params.operationName ?? null)}\n`
    const shapeKey = params && `${shapePrefix}${params.query}`
    let shape = shapeKey === undefined ? undefined : this.#shapes.get(shapeKey)
    // Not the text of a known document: perhaps of its form.
    let ofForm: OfForm | undefined
    let newForm: RecordingHandoff['form']
    if (params && shapePrefix !== undefined && !shape) ({ shape, ofForm, newForm } = this.#byForm(shapePrefix, params))
    // A known document is counted as Yoga counts it; variables that do not coerce are Yoga's to answer (bounded).
    if (shape && params && (await this.#counted(shape, params, requestContext, hooks)) && this.#coerces(shape, params)) {
      const generation = this.results.generation
      const catalogKey = this.results.key(this.schema, shape.document, params.operationName, params.variables)
      if (catalogKey !== undefined) {
        if (await mayReadCatalog(requestContext, this.catalog)) {
          const json = await this.#executeCatalog(catalogKey, shape, params, requestContext)
          if (json !== undefined) {
            const answer = ofForm ? this.#renamedCatalogJson(catalogKey, json, ofForm, generation) : json
            return this.#answerFromShape(res, requestState, shape, answer, hooks, { key: recordingKey, generation })
          }
        }
      } else if (requestContext.auth.hasCredentials) {
        // Anonymous callers go to Yoga.
        const json = await this.#executeKnown(shape, params, requestContext, ofForm)
        if (json !== undefined) return this.#answerFromShape(res, requestState, shape, json, hooks)
      }
    }
    hooks.yoga(withBody(req, body), res, {
      requestState,
      requestContext,
      recordingKey,
      ...(shapeKey === undefined ? {} : { shapeKey }),
      ...(newForm === undefined ? {} : { form: newForm }),
    })
  }

  /** Counts the request (`hooks.count`); false when it is refused, which Yoga then answers. */
  async #counted(shape: Shape, params: Params, ctx: RequestContext, hooks: RecordedAnswerHooks): Promise<boolean> {
    try {
      await hooks.count(ctx, shape.document, params.operationName)
      return true
    } catch {
      return false
    }
  }

  /**
   * The known shape of the request's document's form (docs/performance.md, "Documents of one form"),
   * with this document's aliases where they differ from the known one's; else the form to record
   * beside this document's shape once Yoga has answered it.
   */
  #byForm(shapePrefix: string, params: Params): { shape?: Shape; ofForm?: OfForm; newForm?: RecordingHandoff['form'] } {
    const written = documentForm(params.query, GRAPHQL_LIMITS.maxTokens)
    if (!written) return {}
    const key = `${shapePrefix}${written.key}`
    const form = this.#forms.get(key)
    if (!form || this.#keysOf(form, params) === null) return { newForm: { key, aliases: written.aliases } }
    return sameAliases(form.aliases, written.aliases) ? { shape: form.shape } : { shape: form.shape, ofForm: { form, aliases: written.aliases } }
  }

  /** Where the form's numbered aliases are in its result; null when its document selects too much to map. */
  #keysOf(form: Form, params: Params): AliasedKeys | null {
    if (form.keys === undefined) form.keys = aliasedKeys(form.shape.document, params.operationName, form.aliases) ?? null
    return form.keys
  }

  /**
   * A catalog result's JSON with the keys its document's aliases wrote renamed to this request's. With
   * every alias at the top level (a dashboard naming its lists) the result's top-level values'
   * JSON is kept beside it, and only the keys are written; otherwise the result is renamed whole.
   */
  #renamedCatalogJson(catalogKey: string, json: string, ofForm: OfForm, generation: number): string {
    const keys = ofForm.form.keys!
    if (!onlyTopLevel(keys)) return renamedJson((JSON.parse(json) as { data: unknown }).data, ofForm)
    let values = this.#topLevelJson.get(catalogKey)
    if (!values) {
      const data = (JSON.parse(json) as { data: Record<string, unknown> }).data
      values = Object.entries(data).map(([key, value]) => [key, JSON.stringify(value)])
      this.#topLevelJson.set(catalogKey, values, json.length, generation)
    }
    // The JSON.stringify of `{ data }` with the keys renamed, key by key.
    const members = values.map(([key, value]) => {
      const alias = keys.get(key)?.alias
      return `${JSON.stringify(alias === undefined ? key : ofForm.aliases[alias])}:${value}`
    })
    return `{"data":{${members.join(',')}}}`
  }

  #coerces(shape: Shape, params: Params): boolean {
    const operation = getOperationAST(shape.document, params.operationName)
    return operation ? variablesCoerce(this.schema, operation, params.variables) : false
  }

  /**
   * The JSON of a catalog document's result for these variables: kept, or executed here as Yoga
   * would execute it (same schema, document and context). Undefined for a result with errors,
   * which Yoga then answers (and renders) itself.
   */
  async #executeCatalog(key: string, shape: Shape, params: Params, ctx: RequestContext): Promise<string | undefined> {
    const cached = this.results.get(key)
    if (cached) return cached.stringify()
    const generation = this.results.generation
    return this.results.keep(key, await this.executeQuery(this.#executionArgs(shape, params, ctx)), generation)
  }

  /**
   * The JSON of any other known query's result for this caller, as bytes when the result is shared
   * (made once for all who share it); undefined for a result with errors (Yoga executes it again).
   */
  async #executeKnown(shape: Shape, params: Params, ctx: RequestContext, ofForm?: OfForm): Promise<string | Buffer | undefined> {
    const result = await this.executeQuery(this.#executionArgs(shape, params, ctx))
    if (!isPlainSuccess(result)) return undefined
    // What Yoga writes for this request's document: the known one's result, its aliases' keys renamed.
    if (ofForm) return renamedJson(result.data, ofForm)
    if ('bytes' in result && typeof result.bytes === 'function') return (result as SharedResult).bytes()
    // What Yoga's result processor writes for a result without errors or extensions.
    return result.stringify ? result.stringify(result) : JSON.stringify({ data: result.data })
  }

  #executionArgs(shape: Shape, params: Params, ctx: RequestContext): ExecutionArgs {
    return { schema: this.schema, document: shape.document, contextValue: ctx, variableValues: params.variables, operationName: params.operationName }
  }

  /** Records Yoga's answer to a handed-on request that the result cache answered. */
  plugin(): Plugin {
    return {
      // Any query answered without errors may become a known document (its shape); the result
      // cache's note, made after this one, adds the JSON of a catalog-only answer.
      onExecute: ({ args }) => {
        if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return
        const state = (args.contextValue as unknown as RequestContext).state
        const generation = this.results.generation
        return {
          onExecuteDone: ({ result }) => {
            if (isPlainSuccess(result) && !this.#answers.has(state)) this.#answers.set(state, { generation, document: args.document })
          },
        }
      },
      onResponse: ({ response, serverContext }) => {
        const handoff = serverContext as Partial<RecordingHandoff>
        if (!handoff.recordingKey || !handoff.requestState || response.status !== 200) return
        const answer = this.#answers.get(handoff.requestState)
        if (!answer) return
        if (!JSON_BODY.test(response.headers.get('content-type') ?? '')) return
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          if (!PER_REQUEST_HEADERS.has(name)) headers[name] = value
        })
        if (answer.json !== undefined) {
          const body = Buffer.from(answer.json)
          if (response.headers.get('content-length') !== String(body.length)) return
          const recording = { headers, body, operationName: handoff.requestState.operationName }
          this.#recordings.set(handoff.recordingKey, recording, body.length + handoff.recordingKey.length, answer.generation)
        }
        if (handoff.shapeKey === undefined) return
        const { 'content-length': _length, ...shapeHeaders } = headers
        const shape = { headers: shapeHeaders, document: answer.document, operationName: handoff.requestState.operationName }
        // A document's AST is kept beside its text: about as large again.
        this.#shapes.set(handoff.shapeKey, shape, 2 * handoff.shapeKey.length, SHAPES_GENERATION.generation)
        if (handoff.form) this.#forms.set(handoff.form.key, { shape, aliases: handoff.form.aliases }, 3 * handoff.form.key.length, SHAPES_GENERATION.generation)
      },
    }
  }

  #answerFromRecording(res: ServerResponse, state: RequestState, recording: Recording, hooks: RecordedAnswerHooks): void {
    state.operationName = recording.operationName
    const headers = copyHeaders(recording.headers)
    hooks.finish(state, 200, headers)
    this.metrics.graphqlAnsweredFromRecording()
    if (res.destroyed || res.writableEnded) return
    res.writeHead(200, headers)
    res.end(recording.body)
  }
  /**
   * Answers with a shape's headers and this request's result. A catalog-only answer (`record`) is
   * recorded whole for the same bytes; no other is: it depends on its caller.
   */
  #answerFromShape(
    res: ServerResponse,
    state: RequestState,
    shape: Shape,
    json: string | Buffer,
    hooks: RecordedAnswerHooks,
    record?: { key: string; generation: number },
  ): void {
    const body = typeof json === 'string' ? Buffer.from(json) : json
    const recording = { headers: { ...shape.headers, 'content-length': String(body.length) }, body, operationName: shape.operationName }
    if (record) this.#recordings.set(record.key, recording, body.length + record.key.length, record.generation)
    state.operationName = shape.operationName
    const headers = copyHeaders(recording.headers)
    hooks.finish(state, 200, headers)
    if (record) this.metrics.graphqlAnsweredFromRecording()
    else this.metrics.graphqlAnsweredKnownDocument()
    if (res.destroyed || res.writableEnded) return
    res.writeHead(200, headers)
    res.end(body)
  }
}

const sameAliases = (a: readonly string[], b: readonly string[]) => a.every((alias, i) => alias === b[i])

/** What Yoga writes for a document of a known form: the known document's data, its aliases' keys renamed to this one's. */
const renamedJson = (data: unknown, ofForm: OfForm) => JSON.stringify({ data: renameKeys(data, ofForm.form.keys!, ofForm.aliases) })

/** Keeps Yoga's answer to a handed-on request from being recorded or made known (an admin's document text). */
export function recordNothing(serverContext: object): void {
  delete (serverContext as Partial<RecordingHandoff>).recordingKey
}

/**
 * A recording's headers, for one answer to add its own to. Not `{ ...headers }`: V8 gives a spread
 * copy a map no later property addition reuses, and the four headers `finish` adds then cost ~0.75
 * µs each (3.2 µs a request, 6 % of a same-bytes GraphQL request's CPU; docs/performance.md).
 */
function copyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.assign({}, headers)
}
