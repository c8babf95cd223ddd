import { getOperationAST } from 'graphql'
import type { Plugin } from 'graphql-yoga'
import type { Logger } from 'pino'

import type { RateLimitStatus, RequestContext, RequestState } from '../core/context.ts'
import { AppError } from '../core/errors.ts'
import type { Metrics } from '../observability/metrics.ts'
import { requestLineWriter } from '../observability/request-line.ts'
import { pathnameOf, type RequestStates } from './request-state.ts'

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/

// The Node adapter's server context carries the IncomingMessage.
const socketAddress = (serverContext: unknown) => (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress

/** A 5xx is logged with its cause (never rendered) and the request id that ties it to the response. */
export function logFailure(logger: Logger, error: AppError, requestId: string | undefined): void {
  if (error.status >= 500) logger.error({ err: error.cause ?? error, requestId, kind: error.kind }, 'request failed')
}

/** The IETF RateLimit-* headers (draft 7, lower-case) saying where a caller stands. */
export function rateLimitHeaderValues(status: RateLimitStatus): Record<string, string> {
  return {
    'ratelimit-limit': String(status.limit),
    'ratelimit-remaining': String(status.remaining),
    'ratelimit-reset': String(status.resetSeconds),
  }
}

/** Where a finished request's headers go: a Fetch `Headers`, or a plain record on the REST face. */
export interface HeaderSink {
  set(name: string, value: string): void
  has(name: string): boolean
}

export type FinishRequest = (state: RequestState, method: string, route: string, status: number, headers: HeaderSink) => void

/** The headers `requestFinisher` gives each response: never part of an answer kept for another request. */
export const PER_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'x-request-id',
  ...Object.keys(rateLimitHeaderValues({ limit: 0, remaining: 0, resetSeconds: 0 })),
])

/**
 * Once a response is ready, on either face: gives it `X-Request-Id` and the RateLimit-* headers of
 * the limit it counted against, records the HTTP metrics and writes one log line: request id,
 * method, route pattern (never the raw URL, which may carry ids or tokens), status, latency,
 * caller address and authenticated client. Headers and bodies are never logged.
 */
export function requestFinisher(services: { logger: Logger; metrics: Metrics }): FinishRequest {
  const { metrics } = services
  const writeLine = requestLineWriter(services.logger)
  return (state, method, route, status, headers) => {
    headers.set('x-request-id', state.id)
    if (state.rateLimit && !headers.has('ratelimit-limit')) {
      for (const [name, value] of Object.entries(rateLimitHeaderValues(state.rateLimit))) headers.set(name, value)
    }
    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9
    metrics.httpRequest(route, method, status, seconds)
    writeLine({
      requestId: state.id,
      method: method.slice(0, 16),
      route,
      operation: state.operationName,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      ip: state.clientIp,
      sub: state.clientId,
    })
  }
}

/** The request log on the Yoga face (GraphQL, GraphiQL, metrics): state opened per request, finished per response. */
export function requestLogPlugin(services: { logger: Logger }, states: RequestStates, finish: FinishRequest, routeOf: (pathname: string) => string): Plugin {
  const { logger } = services
  return {
    onRequest({ request, serverContext }) {
      // A request read before Yoga (see RecordedAnswers) arrives with its state already open.
      const opened = (serverContext as { requestState?: RequestState } | undefined)?.requestState
      if (opened) states.adopt(request, opened)
      else states.start(request, socketAddress(serverContext))
    },
    onExecute({ args }) {
      const name = getOperationAST(args.document, args.operationName)?.name?.value
      if (name && GRAPHQL_NAME.test(name)) (args.contextValue as unknown as RequestContext).state.operationName = name
    },
    onExecutionResult({ request, result }) {
      for (const item of Array.isArray(result) ? result : [result]) {
        if (!item || !('errors' in item) || !item.errors) continue
        for (const error of item.errors) {
          if (error.originalError instanceof AppError) logFailure(logger, error.originalError, states.get(request).id)
        }
      }
    },
    onResponse({ request, response, serverContext }) {
      finish(states.get(request, socketAddress(serverContext)), request.method, routeOf(pathnameOf(request)), response.status, response.headers)
    },
  }
}
