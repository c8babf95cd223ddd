import { sql } from 'kysely'

import { AppError, toAppError } from '../../../core/errors.ts'
import { errorBodies, retryAfterHeader } from '../../../http/api-contract.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { liveBody, notReadyBody, readyBody } from './health.schemas.ts'

export const healthRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    access: 'public',
    handler: () => ({ body: { status: 'ok' } }),
    doc: {
      operationId: 'getLiveness',
      summary: 'Liveness: the process is up',
      tag: 'system',
      database: false,
      responses: { 200: { description: 'The process is up', body: liveBody } },
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    access: 'public',
    doc: {
      operationId: 'getReadiness',
      summary: 'Readiness: the database answers',
      description: 'For load balancers: take the instance out of rotation while it answers 503.',
      tag: 'system',
      responses: {
        200: { description: 'Ready', body: readyBody },
        503: { description: 'The database is unreachable or too slow', body: notReadyBody, headers: { 'Retry-After': retryAfterHeader } },
      },
    },
    handler: async ({ ctx }) => {
      try {
        await sql`select 1`.execute(ctx.services.db)
        return { body: { status: 'ok', database: 'ok' } }
      } catch (error) {
        const appError = toAppError(error)
        ctx.services.logger.warn({ err: error }, 'readiness check failed')
        return {
          status: 503,
          headers: { 'retry-after': '5' },
          body: { status: 'unavailable', database: appError.kind === 'gateway_timeout' ? 'timeout' : 'unreachable' },
        }
      }
    },
  },
  {
    method: 'GET',
    path: '/',
    access: 'public',
    doc: {
      operationId: 'getRoot',
      summary: 'Not an endpoint: says where the API is',
      tag: 'system',
      database: false,
      responses: { 404: { description: 'Always: points to `/graphql`, `/api/...` and `/docs`', body: errorBodies.not_found } },
    },
    handler: () => {
      throw new AppError('not_found', 'See /graphql for GraphQL and GraphiQL, /api/... for REST, and /docs for its reference')
    },
  },
]
