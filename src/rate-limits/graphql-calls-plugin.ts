import type { Plugin } from 'graphql-yoga'

import type { RequestContext } from '../core/context.ts'
import { AppError, toAppError } from '../core/errors.ts'
import { toGraphQLError } from '../graphql/graphql-errors.ts'
import { rootSelection } from '../graphql/root-fields.ts'
import type { RequestStates } from '../http/request-state.ts'
import { countAnonymousCall } from './anonymous-calls.ts'
import { LOGIN_FIELDS } from './graphql-login-plugin.ts'
import type { RateLimits } from './rate-limits.ts'

/**
 * The API and anonymous limits on the GraphQL face (docs/operations.md, "Rate limits"):
 * - a request without an `Authorization` header counts against its address's anonymous allowance
 *   when it arrives, before its body is read or parsed (a bad token counts when it fails, in the
 *   request context);
 * - a mutation counts one call per root field (aliases included) against its client's API
 *   allowance, all before any field runs: a request asking for more calls than are left is refused
 *   whole, with one RATE_LIMITED error and nothing done. `login` and `refresh` are not API calls:
 *   they count against the login limits. Queries count once, when a resolver first asks for the
 *   caller.
 */
export function graphqlCallLimitsPlugin(services: { rateLimits: Pick<RateLimits, 'consumeAnon'> }, states: RequestStates, graphqlPath: string): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== graphqlPath || request.method === 'OPTIONS' || request.headers.has('authorization')) return
      try {
        await countAnonymousCall(services, states.get(request))
      } catch (error) {
        endResponse(graphqlErrorResponse(toAppError(error)))
      }
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const { operation, fields } = rootSelection(args.document, args.operationName)
      if (operation !== 'mutation') return
      const calls = fields.filter((field) => !LOGIN_FIELDS.has(field.name)).length
      const ctx = args.contextValue as unknown as RequestContext
      if (calls === 0 || !ctx.auth.hasCredentials) return
      ctx.auth.countAs(calls)
      try {
        await ctx.auth.principal()
      } catch (error) {
        // A bad token is each field's own UNAUTHENTICATED error, as for queries; a limit refuses all.
        if (error instanceof AppError && error.kind === 'rate_limited') setResultAndStopExecution({ errors: [toGraphQLError(error)] })
      }
    },
  }
}

/** A GraphQL error answer made before Yoga parsed anything, shaped as Yoga shapes its own. */
function graphqlErrorResponse(error: AppError): Response {
  const { message, extensions } = toGraphQLError(error)
  const body = { errors: [{ message, extensions: { code: extensions.code, error: extensions.error } }] }
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...error.headers },
  })
}
