import { type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

import { getCORSHeadersByRequestAndOptions } from '@whatwg-node/server'
import type { GraphQLSchema } from 'graphql'
import { createYoga, type YogaServerInstance } from 'graphql-yoga'

import { type RequestContext, type Services } from '../core/context.ts'
import { AppError, restErrorBody } from '../core/errors.ts'
import { AnswerReuse } from '../graphql/answer-reuse/answer-reuse.ts'
import { type RecordingHandoff, recordNothing } from '../graphql/answer-reuse/recorded-answers.ts'
import { toGraphQLError } from '../graphql/graphql-errors.ts'
import { graphqlLimitsPlugin } from '../graphql/limits.ts'
import { TrustedDocumentPolicy, trustedDocumentsPlugin } from '../graphql/persisted-documents.ts'
import { watchResponse } from '../http/event-stream.ts'
import { METRICS_PATH, metricsEndpointPlugin } from '../http/metrics-endpoint.ts'
import { type HeaderSink, logFailure, requestFinisher, requestLogPlugin } from '../http/request-log.ts'
import { header, openRequestState, requestIdFrom, RequestStates } from '../http/request-state.ts'
import { checkRequestTarget } from '../http/request-target.ts'
import { restHandler, UNMATCHED_ROUTE } from '../http/rest-handler.ts'
import { type Route, Router } from '../http/router.ts'
import { noStorePlugin } from '../modules/auth/sessions/no-store.ts'
import { symbolCatalog } from '../modules/exchange/symbols/caches/symbol-catalog.ts'
import { admitGraphQLRequest, countGraphQLOperation, graphqlCallLimitsPlugins } from '../rate-limits/graphql-calls-plugin.ts'
import { graphqlLoginLimitPlugin } from '../rate-limits/graphql-login-plugin.ts'
import { restRateLimits } from '../rate-limits/rest-adapter.ts'
import { graphiqlOptionsFor, renderGraphiQLPage } from './graphiql.ts'
import { schema } from './graphql-schema.ts'
import { graphqlWebSocket } from './graphql-ws.ts'
import { createRequestContext } from './request-context.ts'
import { servedRoutes } from './routes.ts'

const GRAPHQL_PATH = '/graphql'
// Root fields whose identical queries, by one token, share an execution: each authorises its caller first.
const SHARED_QUERY_FIELDS = ['orders']

/** Yoga serves GraphQL (and GraphiQL) and the metrics endpoint; every other path is REST. */
const servedByYoga = (pathname: string) => pathname === GRAPHQL_PATH || pathname === METRICS_PATH

export type Yoga = YogaServerInstance<Record<string, unknown>, RequestContext>

/** Node's request listener for the whole service, and the GraphQL server behind it. */
export interface App {
  handle: (req: IncomingMessage, res: ServerResponse) => void
  /** GraphQL over WebSocket on the GraphQL path; `closeUpgraded` ends those sockets at shutdown. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  closeUpgraded: () => void
  yoga: Yoga
  /** The REST routes served. */
  routes: readonly Route[]
}

export interface AppOptions {
  /** The REST routes served (default: every module's, as the configuration has them). */
  routes?: Route[]
  /** The GraphQL schema served (default: the Pothos schema). */
  schema?: GraphQLSchema
}

export function createApp(services: Services, options: AppOptions = {}): App {
  const { config } = services
  const served = options.routes ?? servedRoutes(config)
  const router = new Router(served)
  const states = new RequestStates(config.trustProxyHops)
  const finish = requestFinisher(services)
  const cors = config.corsOrigins.length
    ? { origin: config.corsOrigins, credentials: false, allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'dpop'], methods: ['GET', 'POST'] }
    : false
  const graphqlSchema = options.schema ?? schema
  const openState = (req: IncomingMessage) =>
    openRequestState(header(req, 'x-request-id'), req.socket.remoteAddress, header(req, 'x-forwarded-for'), config.trustProxyHops)
  const openContext = (req: IncomingMessage, res?: ServerResponse) =>
    createRequestContext(services, openState(req), header(req, 'authorization'), res && watchResponse(res), {
      proof: header(req, 'dpop'),
      method: req.method ?? 'GET',
      url: req.url ?? '/',
    })
  const answerReuse = new AnswerReuse({
    schema: graphqlSchema,
    catalog: symbolCatalog(services.symbolsCache),
    metrics: services.metrics,
    sharedQueryFields: SHARED_QUERY_FIELDS,
    hooks: {
      // Without a response watch: most of these requests are answered here. Yoga gets one with it.
      open: (req) => openContext(req),
      admit: (ctx) => admitGraphQLRequest(services, ctx),
      count: (ctx, document, operationName) => countGraphQLOperation(services, ctx, graphqlSchema, document, operationName),
      finish: (state, status, headers) => finish(state, 'POST', GRAPHQL_PATH, status, recordSink(headers)),
      yoga: (req, res, handoff) => {
        const ctx = handoff.requestContext
        void yoga(req, res, ctx && !ctx.response ? { ...handoff, requestContext: { ...ctx, response: watchResponse(res) } } : handoff)
      },
    },
  })
  const trusted = new TrustedDocumentPolicy({ documents: config.graphqlPersistedDocuments, trustedOnly: config.graphqlTrustedDocumentsOnly })
  // One context per request, whichever asks first: the trusted-documents check (before parsing) or Yoga.
  const contexts = new WeakMap<Request, RequestContext>()
  const contextOf = ({ request, requestContext, res }: { request: Request; res?: ServerResponse } & Partial<RecordingHandoff>) => {
    if (requestContext) return requestContext
    let ctx = contexts.get(request)
    if (!ctx)
      contexts.set(
        request,
        (ctx = createRequestContext(services, states.get(request), request.headers.get('authorization'), res && watchResponse(res), {
          proof: request.headers.get('dpop'),
          method: request.method,
          url: request.url,
        })),
      )
    return ctx
  }
  const callLimits = graphqlCallLimitsPlugins(services, (request, sc) => contextOf({ ...sc, request }), graphqlSchema, GRAPHQL_PATH)
  const yoga = createYoga<Record<string, unknown>, RequestContext>({
    schema: graphqlSchema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: config.graphiql ? graphiqlOptionsFor(config) : false,
    renderGraphiQL: renderGraphiQLOnce,
    cors,
    logging: false,
    // The 1 MiB limit is graphqlLimitsPlugin's, answered with the REST 413 body.
    maxRequestBodySize: false,
    // `res`: Node's response, which a subscription watches (its client leaving or not reading).
    context: contextOf,
    // Rendered here; 5xx logged with their request id by requestLogPlugin.
    maskedErrors: { maskError: (error) => toGraphQLError(error) },
    plugins: [
      requestLogPlugin(services, states, finish, (pathname) => (servedByYoga(pathname) ? pathname : (router.pattern('OPTIONS', pathname) ?? UNMATCHED_ROUTE))),
      metricsEndpointPlugin(services),
      callLimits.arrival,
      graphqlLoginLimitPlugin(services),
      graphqlLimitsPlugin(config, () => services.metrics.graphqlDocumentValidated()),
      // An admin's document text is neither recorded nor made known: RecordedAnswers would answer it to non-admins.
      trustedDocumentsPlugin(trusted, (request, sc) => contextOf({ ...sc, request }).auth.principal(), recordNothing),
      // After the trusted documents' plugin, which turns a documentId into the query counted here.
      callLimits.operations,
      noStorePlugin(states),
      // Last: a catalog result or a shared one ends the onExecute chain.
      ...answerReuse.plugins(),
    ],
  })
  const restLimits = restRateLimits(services)
  const rest = restHandler(router, {
    context: (req) => openContext(req),
    beforeHandler: (route, ctx) => restLimits.beforeHandler(route, ctx.state),
    onError: (error, ctx) => logFailure(services.logger, error, ctx?.requestId),
    onResponse: async (req, ctx, route, status, headers) => {
      await restLimits.answered(route, status, ctx.state)
      const corsHeaders = cors && getCORSHeadersByRequestAndOptions(fetchLike(req), cors)
      if (corsHeaders) for (const [name, value] of Object.entries(corsHeaders)) headers[name.toLowerCase()] ??= value
      finish(ctx.state, req.method ?? 'GET', route.path, status, recordSink(headers))
    },
  })
  const websocket = graphqlWebSocket(services, yoga, trusted, GRAPHQL_PATH)
  return {
    yoga,
    routes: served,
    upgrade: websocket.upgrade,
    closeUpgraded: websocket.close,
    handle: (req, res) => {
      const url = checkRequestTarget(req, res)
      if (!url) return
      // Preflights are Yoga's CORS plugin's, on every path.
      if (servedByYoga(url.pathname) || (cors && req.method === 'OPTIONS')) {
        const served = url.pathname === GRAPHQL_PATH ? answerReuse.serve(req, res, url) : undefined
        if (served) served.catch((error: unknown) => answerUnexpected(services, req, res, error))
        else void yoga(req, res)
      } else rest(req, res, url).catch((error: unknown) => answerUnexpected(services, req, res, error))
    },
  }
}

const graphiqlPages = new Map<string, Buffer>()
/**
 * GraphiQL's page, rendered and encoded once per set of options: it inlines ~9 MB of editor code,
 * and rendering it (JSON-escaping that code), then encoding the text, on every request held the
 * event loop for tens of milliseconds. Yoga hands what this returns to `new Response`, which takes
 * the bytes as they are.
 */
function renderGraphiQLOnce(options: Parameters<typeof renderGraphiQLPage>[0]): string {
  const key = JSON.stringify(options ?? null)
  let page = graphiqlPages.get(key)
  if (page === undefined) graphiqlPages.set(key, (page = Buffer.from(renderGraphiQLPage(options))))
  return page as unknown as string
}

/**
 * A fault outside every handler's own error handling: logged, answered 500 if still possible, with
 * the caller's request id (or a new one, in the log line too) so the two can be matched.
 */
function answerUnexpected(services: Services, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const requestId = requestIdFrom(header(req, 'x-request-id'))
  services.logger.error({ err: error, requestId }, 'request failed outside its handler')
  if (res.headersSent) return void res.destroy()
  const body = JSON.stringify(restErrorBody(new AppError('internal')))
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId })
  res.end(body)
}

/** The slice of a Fetch request the CORS rules read. */
const fetchLike = (req: IncomingMessage) => ({ headers: { get: (name: string) => header(req, name) ?? null } }) as unknown as Request

const recordSink = (headers: Record<string, string>): HeaderSink => ({
  set: (name, value) => {
    headers[name] = value
  },
  has: (name) => name in headers,
})
