import type { DocumentNode, GraphQLError } from 'graphql'
import type { Plugin } from 'graphql-yoga'
import type { RequestContext, Services } from './context.ts'
import { AppError } from './errors.ts'
import { toGraphQLError } from './graphql-errors.ts'
import { rootSelection } from './graphql-root-fields.ts'
import { recordRateLimit, type RequestState } from './request-state.ts'

/** The REST paths of login and refresh, with the seed's alternative prefix. */
export const LOGIN_PATHS = new Set(['/api/sso/v1/auth/login', '/api/sso/v1/auth/refresh', '/api/auth/v1/login', '/api/auth/v1/refresh'])
/** The GraphQL mutations of login and refresh. */
export const LOGIN_FIELDS = new Set(['login', 'refresh'])

/**
 * The per-IP half of the login limit (DESIGN §6), on both faces, before the attempt does any work:
 * a REST login/refresh counts one attempt (`checkLoginAttempt`), a GraphQL mutation one per
 * `login`/`refresh` field it selects (aliases cannot multiply attempts for free). A failed attempt —
 * 401 on REST (`penaliseFailedLogin`), an UNAUTHENTICATED error at a login/refresh field on GraphQL
 * — costs a second point. The per-client half needs the client id from the body and is counted by
 * the login operation itself (`rateLimits.checkLogin({ clientId })`).
 */
export async function checkLoginAttempt(services: Pick<Services, 'rateLimits'>, state: RequestState): Promise<void> {
  recordRateLimit(state, await services.rateLimits.checkLogin({ ip: state.clientIp }))
}

export async function penaliseFailedLogin(services: Pick<Services, 'rateLimits'>, state: RequestState): Promise<void> {
  await services.rateLimits.penaliseLogin({ ip: state.clientIp })
}

export function loginRateLimitPlugin(services: Services): Plugin {
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
