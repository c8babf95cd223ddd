import type { IncomingMessage, ServerResponse } from 'node:http'
import { AppError, restErrorBody, toAppError } from './errors.ts'
import { readJsonBody } from './json-body.ts'
import type { RequestContext } from './context.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RestRequest {
  params: Record<string, string>
  /** Query parameters; a name given twice keeps its last value. */
  query: Record<string, string>
  ctx: RequestContext
  /** The parsed JSON body (422/413/415 on bad bodies); `undefined` when empty. */
  body: () => Promise<unknown>
}

export interface RestResult {
  status?: number
  body: unknown
  headers?: Record<string, string>
}

export interface Route {
  method: Method
  /** `/api/exchange/v1/orders/:uid` — `:name` matches one path segment. */
  path: string
  handler: (req: RestRequest) => Promise<RestResult> | RestResult
  /**
   * Served without an access token (login, refresh, the public keys, health). Every other route
   * authenticates the caller before its handler runs, so a missing or bad token is answered 401
   * before anything reads or validates the body.
   */
  public?: boolean
}

interface CompiledRoute extends Route {
  segments: string[]
}

type Match = { route: Route; params: Record<string, string> } | { allowed: Method[]; path: string } | undefined

export class Router {
  #static = new Map<string, Map<Method, Route>>()
  #dynamic: CompiledRoute[] = []

  constructor(routes: Route[]) {
    for (const route of routes) {
      if (route.path.includes('/:')) this.#dynamic.push({ ...route, segments: route.path.split('/') })
      else {
        const byMethod = this.#static.get(route.path) ?? new Map<Method, Route>()
        if (byMethod.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`)
        byMethod.set(route.method, route)
        this.#static.set(route.path, byMethod)
      }
    }
  }

  match(method: string, pathname: string): Match {
    const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
    const byMethod = this.#static.get(path)
    if (byMethod) {
      const route = byMethod.get(method as Method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined)
      return route ? { route, params: {} } : { allowed: [...byMethod.keys()], path }
    }
    const segments = path.split('/')
    const allowed: Method[] = []
    let pattern = ''
    for (const route of this.#dynamic) {
      const params = matchSegments(route.segments, segments)
      if (!params) continue
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params }
      allowed.push(route.method)
      pattern ||= route.path
    }
    return allowed.length ? { allowed, path: pattern } : undefined
  }

  /** The route pattern a request falls under (`/api/exchange/v1/orders/:uid`), for logs and metrics. */
  pattern(method: string, pathname: string): string | undefined {
    const match = this.match(method, pathname)
    if (!match) return undefined
    return 'route' in match ? match.route.path : match.path
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!
    const a = actual[i]!
    if (p.startsWith(':')) {
      if (a === '') return undefined
      try {
        params[p.slice(1)] = decodeURIComponent(a)
      } catch {
        return undefined
      }
    } else if (p !== a) return undefined
  }
  return params
}

/** A body already serialised to JSON (a cached answer, UTF-8), sent as is. */
export class JsonText {
  constructor(readonly bytes: Buffer) {}
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** A Fetch response with a JSON body, for answers given on the Yoga face (metrics, GraphQL limits). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers } })
}

export function errorResponse(error: AppError): Response {
  return jsonResponse(error.status, restErrorBody(error), error.headers)
}

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
  /** Once the answer is known, before it is written: adds headers, logs, counts. */
  onResponse: (req: IncomingMessage, ctx: RequestContext, route: string, status: number, headers: Record<string, string>) => Promise<void> | void
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
    let route: string = UNMATCHED_ROUTE
    let status: number
    let body: string | Buffer
    let headers: Record<string, string>
    try {
      const match = router.match(method, url.pathname)
      if (!match) throw new AppError('not_found', `No route for ${url.pathname}`)
      if ('allowed' in match) {
        route = match.path
        throw new AppError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { allow: match.allowed.join(', ') } })
      }
      route = match.route.path
      await hooks.beforeHandler?.(match.route, ctx)
      if (!match.route.public) await ctx.auth.principal()
      let parsedBody: Promise<unknown> | undefined
      const result = await match.route.handler({
        params: match.params,
        query: parseQuery(url),
        ctx,
        body: () => (parsedBody ??= readJsonBody(req)),
      })
      status = result.status ?? 200
      body = result.body instanceof JsonText ? result.body.bytes : JSON.stringify(result.body)
      headers = { 'content-type': JSON_CONTENT_TYPE, ...result.headers }
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
    if (res.destroyed || res.writableEnded) return
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length)
    res.writeHead(status, headers)
    res.end(method === 'HEAD' ? undefined : body)
  }
}

/** The route label of requests no route matches, in logs and metrics. */
export const UNMATCHED_ROUTE = 'unmatched'
