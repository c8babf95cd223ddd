import { createHash, timingSafeEqual } from 'node:crypto'

import type { Plugin } from 'graphql-yoga'

import type { Config } from '../core/config.ts'
import { AppError } from '../core/errors.ts'
import { type Metrics, METRICS_CONTENT_TYPE } from '../observability/metrics.ts'
import { errorResponse } from './responses.ts'

export const METRICS_PATH = '/metrics'

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * `GET /metrics` in the Prometheus text format. With `METRICS_TOKEN` set, the scraper must send
 * `Authorization: Bearer <METRICS_TOKEN>`; without it the endpoint is open, like the health
 * checks, for deployments where only the internal network reaches the process.
 */
export function metricsEndpointPlugin(services: { config: Pick<Config, 'metricsToken'>; metrics: Metrics }): Plugin {
  const expected = services.config.metricsToken === undefined ? undefined : digest(`Bearer ${services.config.metricsToken}`)
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== METRICS_PATH) return
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return endResponse(errorResponse(new AppError('method_not_allowed', `Method ${request.method} is not allowed here`, { headers: { allow: 'GET' } })))
      }
      if (expected) {
        const header = request.headers.get('authorization')
        if (header === null) return endResponse(errorResponse(unauthorized('No token provided')))
        // Compared as digests: equal lengths, constant time.
        if (!timingSafeEqual(digest(header), expected)) return endResponse(errorResponse(unauthorized('Invalid metrics token')))
      }
      endResponse(
        new Response(request.method === 'HEAD' ? null : await services.metrics.render(), {
          headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' },
        }),
      )
    },
  }
}

const unauthorized = (message: string) => new AppError('unauthenticated', message, { headers: { 'www-authenticate': 'Bearer realm="metrics"' } })
