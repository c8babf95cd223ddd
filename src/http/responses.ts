import { type AppError, restErrorBody } from '../core/errors.ts'
import type { EventStreamWriter } from './event-stream.ts'

/**
 * What an answer's body can be: route handlers return these (or a plain value, sent as JSON), and
 * answers given on the Yoga face are built here too, so both faces write bodies one way.
 */

/** A body already serialised to JSON (a cached answer, UTF-8), sent as is. */
export class JsonText {
  constructor(readonly bytes: Buffer) {}
}

/** A body that is not JSON (a page, a script, a stylesheet), sent as is with its content type. */
export class RawBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
  ) {}
}

/**
 * A Server-Sent Events stream: the head is written (200, `text/event-stream`), then `open` takes
 * the response over and writes messages until it ends the stream or the client leaves.
 */
export class EventStreamBody {
  constructor(
    readonly open: (stream: EventStreamWriter) => void,
    /** The stream will never open (a HEAD request, a client already gone): frees what was taken for it. */
    readonly cancel: () => void,
  ) {}
}

/**
 * A long body written as it is produced (a statement of a year of entries): the head is written,
 * then each chunk as the client takes it (backpressure), so memory holds one chunk, not the body.
 * A failure after the head can no longer change the status: the connection is cut, so the client
 * sees a truncated answer rather than a complete-looking one.
 */
export class StreamedBody {
  constructor(
    readonly contentType: string,
    readonly chunks: () => AsyncGenerator<string>,
  ) {}
}

export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Proxies that buffer answers (nginx) would hold events back.
  'x-accel-buffering': 'no',
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** A Fetch response with a JSON body, for answers given on the Yoga face (metrics, GraphQL limits). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers } })
}

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.status, restErrorBody(error), error.headers)
}
