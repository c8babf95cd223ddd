import type { RequestContext } from '../core/context.ts'
import type { RouteDoc } from './api-contract.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RestRequest {
  params: Record<string, string>
  /** Query parameters; a name given twice keeps its last value. */
  query: Record<string, string>
  /** A request header (lower-case name), repeated ones joined with `, `. */
  header: (name: string) => string | undefined
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
   * Who may call it. `token` (the default): the caller is authenticated before the handler runs,
   * so a missing or bad token is answered 401 before anything reads or validates the body.
   * `public`: no token (the public keys, health). `login`: no token, and each call is a login
   * attempt against the per-address login limit (login and refresh).
   */
  access?: RouteAccess
  /** What the OpenAPI document says of it (docs/contracts.md); every route of the application's table has one. */
  doc?: RouteDoc
}

/** A route of the application's table: it must describe itself (a route without `doc` does not type-check there). */
export type DocumentedRoute = Route & { doc: RouteDoc }

export type RouteAccess = 'token' | 'public' | 'login'

/** A route with its path split; the route itself is kept as given, so a match names the table's own object. */
interface CompiledRoute {
  route: Route
  segments: string[]
}

type Match = { route: Route; params: Record<string, string> } | { allowed: Method[]; path: string } | undefined

export class Router {
  #static = new Map<string, Map<Method, Route>>()
  #dynamic: CompiledRoute[] = []

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      if (route.path.includes('/:')) this.#dynamic.push({ route, segments: route.path.split('/') })
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
    for (const { route, segments: routeSegments } of this.#dynamic) {
      const params = matchSegments(routeSegments, segments)
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
