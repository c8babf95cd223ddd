import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga'
import { renderGraphiQL } from '@graphql-yoga/render-graphiql'
import { createRequestContext, type RequestContext, type Services } from './context.ts'
import type { AppError } from './errors.ts'
import { noStorePlugin } from './modules/auth/no-store.ts'
import { toGraphQLError } from './graphql-errors.ts'
import { restPlugin, Router } from './rest.ts'
import { routes } from './routes.ts'
import { schema } from './schema.ts'

const GRAPHQL_PATH = '/graphql'
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export type App = YogaServerInstance<Record<string, unknown>, RequestContext>

/** An incoming `X-Request-Id` is kept when it is sane, so a bank can trace a call end to end. */
function requestIdPlugin(ids: WeakMap<Request, string>): Plugin {
  return {
    onRequest({ request }) {
      const incoming = request.headers.get('x-request-id')
      ids.set(request, incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID())
    },
    onResponse({ request, response }) {
      const id = ids.get(request)
      if (id) response.headers.set('x-request-id', id)
    },
  }
}

export function createApp(services: Services): App {
  const ids = new WeakMap<Request, string>()
  const requestId = (request: Request) => ids.get(request) ?? randomUUID()
  const logError = (error: AppError, ctx: RequestContext | undefined) => {
    if (error.status >= 500) {
      services.logger.error({ err: error.cause ?? error, requestId: ctx?.requestId, kind: error.kind }, 'request failed')
    }
  }
  const { config } = services
  return createYoga<Record<string, unknown>, RequestContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: config.graphiql ? { title: 'Exchange API' } : false,
    renderGraphiQL,
    cors: config.corsOrigins.length
      ? { origin: config.corsOrigins, credentials: false, allowedHeaders: ['authorization', 'content-type', 'x-request-id'], methods: ['GET', 'POST'] }
      : false,
    logging: false,
    context: ({ request }) => createRequestContext(services, request, requestId(request)),
    maskedErrors: {
      maskError: (error) => {
        const rendered = toGraphQLError(error)
        const original = rendered.originalError as AppError | undefined
        if (original && 'kind' in original) logError(original, undefined)
        return rendered
      },
    },
    plugins: [
      requestIdPlugin(ids),
      noStorePlugin(),
      restPlugin({
        router: new Router(routes),
        passThrough: (pathname) => pathname === GRAPHQL_PATH,
        context: (request) => createRequestContext(services, request, requestId(request)),
        onError: logError,
      }),
    ],
  })
}

export interface RunningServer {
  server: Server
  app: App
  url: string
  close: () => Promise<void>
}

/** Listens on `port`/`host`; `close` stops accepting, lets in-flight requests finish, then resolves. */
export async function listen(app: App, port: number, host: string): Promise<RunningServer> {
  const server = createServer(app)
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.requestTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return {
    server,
    app,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), 10_000).unref()
      }),
  }
}
