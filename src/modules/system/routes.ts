import { sql } from 'kysely'
import type { Route } from '../../rest.ts'
import { AppError, toAppError } from '../../errors.ts'

export const systemRoutes: Route[] = [
  { method: 'GET', path: '/healthz', public: true, handler: () => ({ body: { status: 'ok' } }) },
  {
    method: 'GET',
    path: '/readyz',
    public: true,
    handler: async ({ ctx }) => {
      try {
        await sql`select 1`.execute(ctx.db)
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
    public: true,
    handler: () => {
      throw new AppError('not_found', 'See /graphql for GraphQL and GraphiQL, and /api/... for REST')
    },
  },
]
