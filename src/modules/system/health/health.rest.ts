import { sql } from 'kysely'

import { AppError, toAppError } from '../../../core/errors.ts'
import type { Route } from '../../../http/router.ts'

export const healthRoutes: Route[] = [
  { method: 'GET', path: '/healthz', access: 'public', handler: () => ({ body: { status: 'ok' } }) },
  {
    method: 'GET',
    path: '/readyz',
    access: 'public',
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
    handler: () => {
      throw new AppError('not_found', 'See /graphql for GraphQL and GraphiQL, and /api/... for REST')
    },
  },
]
