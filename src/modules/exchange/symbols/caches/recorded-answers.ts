import type { IncomingMessage, ServerResponse } from 'node:http'

import type { Plugin } from 'graphql-yoga'

import type { RequestContext, RequestState, Services } from '../../../../core/context.ts'
import { PER_REQUEST_HEADERS } from '../../../../http/request-log.ts'
import { ResultStore } from './result-store.ts'
import { mayReadCatalog } from './symbols-result-cache.ts'

// Larger bodies go to Yoga unread: a dashboard's catalog query is a few hundred bytes.
const MAX_BODY_BYTES = 8 * 1024
// The media types whose body Yoga writes as the result's JSON and nothing else.
const JSON_BODY = /^application\/(json|graphql-response\+json)(;|$)/

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
}

export interface RecordedAnswerHooks {
  /** Opens the request's state as it arrives (its id, address, start time). */
  open: (req: IncomingMessage) => RequestState
  context: (req: IncomingMessage, state: RequestState) => RequestContext
  /** Adds the per-request headers to a recorded answer and logs it (as Yoga's would be). */
  finish: (state: RequestState, status: number, headers: Record<string, string>) => void
  /** Hands the request on: its body is already read. */
  yoga: (req: IncomingMessage, res: ServerResponse, handoff: RecordingHandoff) => void
}

/**
 * Answers a GraphQL request before Yoga when it repeats one that the catalog result cache
 * (symbolsResultCachePlugin) answered: the same body bytes, `Accept`, `Content-Type` and `Origin`
 * (all that Yoga reads to choose its answer) while the catalog is unchanged. Yoga's answer to the
 * first such request is recorded, headers and body, and repeated: the same document, operation and
 * variables validate and execute the same way, so only Yoga's per-request pipeline is skipped.
 *
 * The caller is still authenticated, checked for `symbols:read` and counted against its rate
 * limit, and the answer gets its own request id, RateLimit-* headers, log line and metrics. A
 * request that is not a repeat, or whose caller fails any check, is handed to Yoga with the same
 * state and context, so it is answered, counted and logged exactly once, as it always was.
 */
export class RecordedAnswers {
  readonly #recordings: ResultStore<Recording>
  // The JSON the result cache answered a request with, and the catalog generation it holds for.
  readonly #answers = new WeakMap<RequestState, { json: string; generation: number }>()

  constructor(private readonly services: Pick<Services, 'symbolsCache' | 'metrics'>) {
    this.#recordings = new ResultStore(services.symbolsCache)
  }

  /** Called by the result cache when it answers a request with a catalog-only result. */
  noteCatalogAnswer(state: RequestState, json: string, generation: number): void {
    this.#answers.set(state, { json, generation })
  }

  /** The body length of a request that may be a repeat; `undefined` sends it to Yoga unread. */
  candidateLength(req: IncomingMessage, url: URL): number | undefined {
    if (req.method !== 'POST' || url.search !== '' || req.headers['transfer-encoding'] !== undefined || req.headers['content-encoding'] !== undefined)
      return undefined
    const length = Number(req.headers['content-length'])
    return Number.isInteger(length) && length > 0 && length <= MAX_BODY_BYTES ? length : undefined
  }

  async serve(req: IncomingMessage, res: ServerResponse, length: number, hooks: RecordedAnswerHooks): Promise<void> {
    const requestState = hooks.open(req)
    const { body, complete } = await readBody(req, length)
    // The client went away mid-body: Yoga answers (and logs) the part that came, as it always did.
    if (!complete) return hooks.yoga(withBody(req, body), res, { requestState })
    const recordingKey = `${req.headers.accept ?? ''}\n${req.headers['content-type'] ?? ''}\n${req.headers.origin ?? ''}\n${body.toString('latin1')}`
    const recording = this.#recordings.get(recordingKey)
    let requestContext: RequestContext | undefined
    if (recording) {
      requestContext = hooks.context(req, requestState)
      if (await mayReadCatalog(requestContext)) return this.#answerFromRecording(res, requestState, recording, hooks)
    }
    hooks.yoga(withBody(req, body), res, { requestState, requestContext, recordingKey })
  }

  /** Records Yoga's answer to a handed-on request that the result cache answered. */
  plugin(): Plugin {
    return {
      onResponse: ({ response, serverContext }) => {
        const handoff = serverContext as Partial<RecordingHandoff>
        if (!handoff.recordingKey || !handoff.requestState || response.status !== 200) return
        const answer = this.#answers.get(handoff.requestState)
        if (!answer) return
        if (!JSON_BODY.test(response.headers.get('content-type') ?? '')) return
        const body = Buffer.from(answer.json)
        if (response.headers.get('content-length') !== String(body.length)) return
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          if (!PER_REQUEST_HEADERS.has(name)) headers[name] = value
        })
        const recording = { headers, body, operationName: handoff.requestState.operationName }
        this.#recordings.set(handoff.recordingKey, recording, body.length + handoff.recordingKey.length, answer.generation)
      },
    }
  }

  #answerFromRecording(res: ServerResponse, state: RequestState, recording: Recording, hooks: RecordedAnswerHooks): void {
    state.operationName = recording.operationName
    const headers = { ...recording.headers }
    hooks.finish(state, 200, headers)
    this.services.metrics.graphqlAnsweredFromRecording()
    if (res.destroyed || res.writableEnded) return
    res.writeHead(200, headers)
    res.end(recording.body)
  }
}

/** `req`'s body: all `length` bytes, or what came before the client went away. */
function readBody(req: IncomingMessage, length: number): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = () => resolve({ body: Buffer.concat(chunks, size), complete: size === length && req.complete })
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
    })
    // Whichever comes first settles it; `close` follows `end` on every request.
    req.once('end', settle)
    req.once('close', settle)
    req.on('error', settle)
  })
}

/** Yoga reads a body already read from `req.body`, as it does behind body-parsing frameworks. */
function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  ;(req as IncomingMessage & { body?: Buffer }).body = body
  return req
}
