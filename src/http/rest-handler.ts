import type { IncomingMessage, ServerResponse } from 'node:http'

import type { RequestContext } from '../core/context.ts'
import { AppError, restErrorBody, toAppError } from '../core/errors.ts'
import { EventStreamWriter } from './event-stream.ts'
import { readJsonBody } from './json-body.ts'
import { header } from './request-state.ts'
import { EVENT_STREAM_HEADERS, EventStreamBody, JSON_CONTENT_TYPE, JsonText, RawBody, StreamedBody } from './responses.ts'
import type { Route, RouteAccess, Router } from './router.ts'

function parseQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) query[key] = value
  return query
}

export interface RestHooks {
  /** Opens the request's context (authentication is lazy: routes ask for it). */
  context: (req: IncomingMessage) => RequestContext
  /** Runs before the route's handler, after the route is known; may refuse (a rate limit). */
  beforeHandler?: (route: Route, ctx: RequestContext) => Promise<void>
  /** Called for every error answer; 5xx are logged there. */
  onError: (error: AppError, ctx: RequestContext | undefined) => void
  /** Once the answer is known, before it is written: adds headers, logs, counts. `route` is the matched pattern. */
  onResponse: (
    req: IncomingMessage,
    ctx: RequestContext,
    route: { path: string; access: RouteAccess | undefined },
    status: number,
    headers: Record<string, string>,
  ) => Promise<void> | void
}

/**
 * Serves the REST routes straight on Node's HTTP server, beside Yoga rather than inside it: the
 * banks' hot paths (symbols, orders, login) skip the Fetch request/response objects and the plugin
 * chain, which cost more than the answer itself once it is cached. Anything unknown is a 404 JSON
 * body; every answer carries the same headers and log line as the GraphQL face (see `RestHooks`).
 */
export function restHandler(router: Router, hooks: RestHooks): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  return async (req, res, url) => {
    const method = req.method ?? 'GET'
    const ctx = hooks.context(req)
    let route: { path: string; access: RouteAccess | undefined } = { path: UNMATCHED_ROUTE, access: undefined }
    let status: number
    let body: string | Buffer
    let headers: Record<string, string>
    let stream: EventStreamBody | undefined
    let streamed: StreamedBody | undefined
    try {
      const match = router.match(method, url.pathname)
      if (!match) throw new AppError('not_found', `No route for ${url.pathname}`)
      if ('allowed' in match) {
        route = { path: match.path, access: undefined }
        throw new AppError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { allow: match.allowed.join(', ') } })
      }
      route = { path: match.route.path, access: match.route.access }
      await hooks.beforeHandler?.(match.route, ctx)
      if ((match.route.access ?? 'token') === 'token') await ctx.auth.principal()
      let parsedBody: Promise<unknown> | undefined
      const result = await match.route.handler({
        params: match.params,
        query: parseQuery(url),
        header: (name) => header(req, name),
        ctx,
        body: () => (parsedBody ??= readJsonBody(req)),
      })
      status = result.status ?? 200
      if (result.body instanceof EventStreamBody) {
        stream = result.body
        body = ''
        headers = { ...EVENT_STREAM_HEADERS, ...result.headers }
      } else if (result.body instanceof StreamedBody) {
        streamed = result.body
        body = ''
        headers = { 'content-type': result.body.contentType, 'cache-control': 'no-store', ...result.headers }
      } else if (result.body instanceof RawBody) {
        body = result.body.bytes
        headers = { 'content-type': result.body.contentType, ...result.headers }
      } else {
        body = result.body instanceof JsonText ? result.body.bytes : JSON.stringify(result.body)
        headers = { 'content-type': JSON_CONTENT_TYPE, ...result.headers }
      }
    } catch (thrown) {
      const error = toAppError(thrown)
      hooks.onError(error, ctx)
      status = error.status
      body = JSON.stringify(restErrorBody(error))
      headers = { 'content-type': JSON_CONTENT_TYPE, ...error.headers }
    }
    try {
      await hooks.onResponse(req, ctx, route, status, headers)
    } catch (thrown) {
      hooks.onError(toAppError(thrown), ctx)
    }
    if (stream && (method === 'HEAD' || res.destroyed || res.writableEnded)) stream.cancel()
    else if (stream) {
      res.writeHead(status, headers)
      res.flushHeaders()
      stream.open(new EventStreamWriter(res))
      return
    }
    if (res.destroyed || res.writableEnded) return
    if (streamed) {
      res.writeHead(status, headers)
      if (method === 'HEAD') res.end()
      else await writeChunks(res, streamed, (thrown) => hooks.onError(toAppError(thrown), ctx))
      return
    }
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length)
    res.writeHead(status, headers)
    res.end(method === 'HEAD' ? undefined : body)
  }
}

/** Writes a streamed body chunk by chunk, waiting while the client's socket is full; stops when the client leaves. */
async function writeChunks(res: ServerResponse, body: StreamedBody, onError: (thrown: unknown) => void): Promise<void> {
  try {
    for await (const chunk of body.chunks()) {
      if (res.destroyed) return
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done)
            res.off('close', done)
            resolve()
          }
          res.on('drain', done)
          res.on('close', done)
        })
      }
    }
    res.end()
  } catch (thrown) {
    onError(thrown)
    res.destroy()
  }
}

/** The route label of requests no route matches, in logs and metrics. */
export const UNMATCHED_ROUTE = 'unmatched'
