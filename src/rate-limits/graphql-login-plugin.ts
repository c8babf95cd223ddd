import type { DocumentNode, GraphQLError } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { RequestContext } from '../core/context.ts'
import { AppError } from '../core/errors.ts'
import { toGraphQLError } from '../graphql/graphql-errors.ts'
import { rootSelection } from '../graphql/root-fields.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/** The GraphQL mutations of login and refresh. */
export const LOGIN_FIELDS = new Set(['login', 'refresh'])

/**
 * The per-address half of the login limit (docs/operations.md, "Rate limits") on the GraphQL face,
 * before the attempt does any work: a mutation counts one attempt per `login`/`refresh` field it
 * selects (aliases cannot multiply attempts for free), and each such field answered with an
 * UNAUTHENTICATED error a second point, as a REST login/refresh does (`restRateLimits`). The
 * per-client half needs the client id from the body and is counted by the login operation itself
 * (`rateLimits.checkLogin({ clientId })`).
 */
export function graphqlLoginLimitPlugin(services: { rateLimits: Pick<RateLimits, 'checkLogin' | 'penaliseLogin'> }): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const responseKeys = loginResponseKeys(args.document, args.operationName ?? undefined)
      if (!responseKeys.length) return
      const ctx = args.contextValue as unknown as RequestContext
      try {
        recordRateLimit(ctx.state, await services.rateLimits.checkLogin({ ip: ctx.clientIp }, responseKeys.length))
      } catch (error) {
        setResultAndStopExecution({ errors: [toGraphQLError(error)] })
        return
      }
      return {
        async onExecuteDone({ result }) {
          if (!('errors' in result) || !result.errors) return
          const keys = new Set(responseKeys)
          const failed = result.errors.filter((e) => e.path?.length === 1 && keys.has(String(e.path[0])) && isAuthenticationFailure(e)).length
          if (failed) await services.rateLimits.penaliseLogin({ ip: ctx.clientIp }, failed)
        },
      }
    },
  }
}

function isAuthenticationFailure(error: GraphQLError): boolean {
  if (error.originalError instanceof AppError) return error.originalError.status === 401
  return error.extensions?.code === 'UNAUTHENTICATED'
}

/** Response keys of the root `login`/`refresh` fields the executed mutation selects, through fragments. */
export function loginResponseKeys(document: DocumentNode, operationName: string | undefined): string[] {
  const { operation, fields } = rootSelection(document, operationName)
  if (operation !== 'mutation') return []
  return fields.filter((field) => LOGIN_FIELDS.has(field.name)).map((field) => field.responseKey)
}
