import { getOperationAST } from 'graphql'
import type { Plugin } from 'graphql-yoga'
import type { Logger } from 'pino'
import type { Services } from './context.ts'
import { AppError } from './errors.ts'
import { rateLimitHeaders } from './rate-limits.ts'
import { pathnameOf, type RequestStates } from './request-state.ts'

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/

// The Node adapter's server context carries the IncomingMessage.
const socketAddress = (serverContext: unknown) => (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress

/**
 * Opens each request's state (id, caller address, start time) and, once the response is ready,
 * gives it `X-Request-Id` and the RateLimit-* headers of the limit it counted against, records
 * the HTTP metrics and writes one log line: request id, method, route pattern (never the raw URL,
 * which may carry ids or tokens), status, latency, caller address and authenticated client.
 * Headers and bodies are never logged.
 */
/** A 5xx is logged with its cause (never rendered) and the request id that ties it to the response. */
export function logFailure(logger: Logger, error: AppError, requestId: string | undefined): void {
  if (error.status >= 500) logger.error({ err: error.cause ?? error, requestId, kind: error.kind }, 'request failed')
}

export function requestLogPlugin(services: Services, states: RequestStates, routeOf: (request: Request, pathname: string) => string): Plugin {
  const { logger, metrics } = services
  // The per-request line is built below from fixed fields that never hold a credential; checking
  // it against every redaction path (wildcards included) was ~5 % of a cached request's CPU.
  const lines = logger.child({}, { redact: { paths: [], censor: '[redacted]' } })
  return {
    onRequest({ request, serverContext }) {
      states.start(request, socketAddress(serverContext))
    },
    onExecute({ args }) {
      const name = getOperationAST(args.document, args.operationName)?.name?.value
      if (name && GRAPHQL_NAME.test(name)) states.get((args.contextValue as { request: Request }).request).operationName = name
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
      const state = states.get(request, socketAddress(serverContext))
      response.headers.set('x-request-id', state.id)
      if (state.rateLimit && !response.headers.has('ratelimit-limit')) {
        for (const [name, value] of Object.entries(rateLimitHeaders(state.rateLimit))) response.headers.set(name, value)
      }
      const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9
      const route = routeOf(request, pathnameOf(request))
      metrics.httpRequest(route, request.method, response.status, seconds)
      const line = {
        requestId: state.id,
        method: request.method.slice(0, 16),
        route,
        ...(state.operationName ? { operation: state.operationName } : {}),
        status: response.status,
        ms: Math.round(seconds * 10_000) / 10,
        ip: state.clientIp,
        ...(state.clientId ? { sub: state.clientId } : {}),
      }
      if (response.status >= 500) lines.error(line, 'request')
      else lines.info(line, 'request')
    },
  }
}
