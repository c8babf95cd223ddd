import type { Plugin } from 'graphql-yoga'
import { AppError, restErrorBody, toAppError } from './errors.ts'
import { readJsonBody } from './json-body.ts'
import type { RequestContext } from './context.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RestRequest {
  request: Request
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

/**
 * `ResponseType` is best the server's own (`fetchAPI.Response`): the Node adapter writes its string
 * body straight to the socket, where a global Response's body is pumped through a ReadableStream.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}, ResponseType: typeof Response = Response): Response {
  return new ResponseType(body instanceof JsonText ? (body.bytes as Uint8Array<ArrayBuffer>) : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

export function errorResponse(error: AppError, ResponseType: typeof Response = Response): Response {
  return jsonResponse(error.status, restErrorBody(error), error.headers, ResponseType)
}

function parseQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) query[key] = value
  return query
}

export interface RestPluginOptions {
  router: Router
  /** Paths Yoga serves itself (GraphQL). */
  passThrough: (pathname: string) => boolean
  context: (request: Request) => RequestContext
  onError: (error: AppError, ctx: RequestContext | undefined) => void
}

/**
 * Serves REST routes inside Yoga's `onRequest`, before any GraphQL work: the banks' paths stay
 * thin adapters over the same operations, and anything unknown is a 404 JSON body.
 */
export function restPlugin(options: RestPluginOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (options.passThrough(url.pathname)) return
      let ctx: RequestContext | undefined
      try {
        const match = options.router.match(request.method, url.pathname)
        if (!match) throw new AppError('not_found', `No route for ${url.pathname}`)
        if ('allowed' in match) {
          throw new AppError('method_not_allowed', `Method ${request.method} is not allowed here`, {
            headers: { allow: match.allowed.join(', ') },
          })
        }
        ctx = options.context(request)
        let body: Promise<unknown> | undefined
        const result = await match.route.handler({
          request,
          params: match.params,
          query: parseQuery(url),
          ctx,
          body: () => (body ??= readJsonBody(request)),
        })
        endResponse(jsonResponse(result.status ?? 200, result.body, result.headers, fetchAPI.Response))
      } catch (thrown) {
        const error = toAppError(thrown)
        options.onError(error, ctx)
        endResponse(errorResponse(error, fetchAPI.Response))
      }
    },
  }
}
