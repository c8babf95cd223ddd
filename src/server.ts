import { createServer, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { GraphQLSchema } from 'graphql'
import { createYoga, type YogaServerInstance } from 'graphql-yoga'
import { renderGraphiQL } from '@graphql-yoga/render-graphiql'
import { createRequestContext, type RequestContext, type Services } from './context.ts'
import { noStorePlugin } from './modules/auth/no-store.ts'
import { symbolsResultCachePlugin } from './modules/exchange/symbols-result-cache.ts'
import { toGraphQLError } from './graphql-errors.ts'
import { graphqlLimitsPlugin } from './graphql-limits.ts'
import { loginRateLimitPlugin } from './login-rate-limit.ts'
import { METRICS_PATH, metricsEndpointPlugin } from './metrics-endpoint.ts'
import { logFailure, requestLogPlugin } from './request-log.ts'
import { checkRequestTarget } from './request-target.ts'
import { RequestStates } from './request-state.ts'
import { restPlugin, Router, type Route } from './rest.ts'
import { routes } from './routes.ts'
import { schema } from './schema.ts'

const GRAPHQL_PATH = '/graphql'
/** The route label of requests no route matches, in logs and metrics. */
export const UNMATCHED_ROUTE = 'unmatched'

export type App = YogaServerInstance<Record<string, unknown>, RequestContext>

export interface AppOptions {
  /** The REST routes served (default: every module's). */
  routes?: Route[]
  /** The GraphQL schema served (default: the Pothos schema). */
  schema?: GraphQLSchema
}

export function createApp(services: Services, options: AppOptions = {}): App {
  const { config } = services
  const router = new Router(options.routes ?? routes)
  const states = new RequestStates(config.trustProxyHops)
  const routeOf = (request: Request, pathname: string) =>
    pathname === GRAPHQL_PATH || pathname === METRICS_PATH ? pathname : (router.pattern(request.method, pathname) ?? UNMATCHED_ROUTE)
  return createYoga<Record<string, unknown>, RequestContext>({
    schema: options.schema ?? schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: config.graphiql ? { title: 'Exchange API' } : false,
    renderGraphiQL,
    cors: config.corsOrigins.length
      ? { origin: config.corsOrigins, credentials: false, allowedHeaders: ['authorization', 'content-type', 'x-request-id'], methods: ['GET', 'POST'] }
      : false,
    logging: false,
    // The 1 MiB limit is graphqlLimitsPlugin's, answered with the REST 413 body.
    maxRequestBodySize: false,
    context: ({ request }) => createRequestContext(services, request, states.get(request)),
    // Rendered here; 5xx logged with their request id by requestLogPlugin.
    maskedErrors: { maskError: (error) => toGraphQLError(error) },
    plugins: [
      requestLogPlugin(services, states, routeOf),
      metricsEndpointPlugin(services),
      loginRateLimitPlugin(services, states, routeOf),
      graphqlLimitsPlugin(config),
      noStorePlugin(),
      restPlugin({
        router,
        passThrough: (pathname) => pathname === GRAPHQL_PATH,
        context: (request) => createRequestContext(services, request, states.get(request)),
        onError: (error, ctx) => logFailure(services.logger, error, ctx?.requestId),
      }),
      symbolsResultCachePlugin(services),
    ],
  })
}

export interface RunningServer {
  server: Server
  app: App
  url: string
  close: () => Promise<void>
}

const DRAIN_TIMEOUT_MS = 10_000

/**
 * Listens on `port`/`host`. `close` stops accepting connections, lets in-flight requests finish
 * (each answered with `Connection: close`, and idle keep-alive connections closed as they become
 * idle), then resolves; connections still open after 10 s are cut.
 */
export async function listen(app: App, port: number, host: string): Promise<RunningServer> {
  const server = createServer((req, res) => {
    if (checkRequestTarget(req, res)) void app(req, res)
  })
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.requestTimeout = 30_000
  const inFlight = new Set<ServerResponse>()
  let draining = false
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('connection', 'close')
    inFlight.add(res)
    res.on('close', () => inFlight.delete(res))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  let closing: Promise<void> | undefined
  return {
    server,
    app,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        draining = true
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
        const sweep = setInterval(() => server.closeIdleConnections(), 100)
        const cut = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS)
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      })),
  }
}
