import type { DocumentNode, GraphQLSchema } from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { AuthContext } from '../core/auth.ts'
import type { RequestContext } from '../core/context.ts'
import { AppError, toAppError } from '../core/errors.ts'
import { toGraphQLError } from '../graphql/graphql-errors.ts'
import { GRAPHQL_LIMITS, parseBounded } from '../graphql/limits.ts'
import { INTROSPECTION_ROOTS, measureOperation } from '../graphql/operation-cost.ts'
import { rememberParsed } from '../graphql/parsed-documents.ts'
import { answersAnonymous, rootSelection } from '../graphql/root-fields.ts'
import { countAnonymousCall } from './anonymous-calls.ts'
import type { RateLimits } from './rate-limits.ts'

type Counters = { rateLimits: Pick<RateLimits, 'consumeAnon'> }

/** Introspection cost (operation-cost.ts) that counts as one more call: a complete introspection is some 30 calls. */
export const INTROSPECTION_COST_PER_CALL = 400

/**
 * A GraphQL request as it arrives, before its body is read: a caller whose token verifies goes on;
 * one without a token or with a token that fails counts one call against its address's anonymous
 * limit now (429 over it), and is from then on served as an anonymous caller is.
 */
export async function admitGraphQLRequest(services: Counters, ctx: RequestContext): Promise<void> {
  if (ctx.auth.hasCredentials && (await ctx.auth.verified())) return
  await countAnonymousCall(services, ctx.state)
}

// Each request's count, once: a refusal is refused again to whichever step asks next.
const countedRequests = new WeakMap<AuthContext, Promise<void>>()

/**
 * Counts a GraphQL request by what it asks, before it is validated, its variables coerced or
 * anything executed: a verified caller selecting a root field that authenticates counts against
 * its client's API limit (a mutation once per such root field); any other request (introspection
 * only, `login`/`refresh`/`serverTime`/`health` only, a document that does not parse or names no
 * operation, a caller whose token failed) counts against its address's anonymous limit.
 * Introspection adds a call per INTROSPECTION_COST_PER_CALL of its cost, by what it returns.
 * Over the limit it throws 429, and the request is refused whole. Once per request.
 */
export function countGraphQLOperation(
  services: Counters,
  ctx: RequestContext,
  schema: GraphQLSchema,
  document: DocumentNode | undefined,
  operationName: string | null | undefined,
): Promise<void> {
  let counted = countedRequests.get(ctx.auth)
  if (!counted) countedRequests.set(ctx.auth, (counted = count()))
  return counted

  async function count(): Promise<void> {
    const { operation, fields } = document ? rootSelection(document, operationName) : { operation: undefined, fields: [] }
    // Introspection is asked for at the root only; measured only then.
    const measured =
      document && fields.some((field) => INTROSPECTION_ROOTS.has(field.name)) && measureOperation(schema, document, operationName, GRAPHQL_LIMITS)
    const introspection = measured ? Math.floor(measured.measure.introspectionCost / INTROSPECTION_COST_PER_CALL) : 0
    const guarded = operation ? fields.filter((field) => !answersAnonymous(schema, operation, field.name)) : []
    if (guarded.length && ctx.auth.hasCredentials && (await ctx.auth.verified())) {
      await ctx.auth.countAs((operation === 'mutation' ? guarded.length : 1) + introspection)
      await ctx.auth.principal()
      return
    }
    await countAnonymousCall(services, ctx.state, 1 + introspection)
  }
}

/**
 * The API and anonymous limits on the GraphQL face (docs/operations.md, "Rate limits"): every
 * request counts once, before its body is read when it has no valid token (`admitGraphQLRequest`),
 * and by what it asks before it is validated (`countGraphQLOperation`). Register `arrival` first
 * and `operations` after every plugin that rewrites the request's parameters (trusted documents).
 * Over WebSocket, where operations skip the HTTP parameters, they are counted as they execute
 * (`arrival`'s `onExecute`).
 */
export function graphqlCallLimitsPlugins(
  services: Counters,
  contextOf: (request: Request, serverContext: object) => RequestContext,
  schema: GraphQLSchema,
  graphqlPath: string,
): { arrival: Plugin; operations: Plugin } {
  const countExecuted = async (args: { contextValue: unknown; document: DocumentNode; operationName?: string | null }, stop: (result: object) => void) => {
    const ctx = args.contextValue as RequestContext
    try {
      await countGraphQLOperation(services, ctx, schema, args.document, args.operationName)
    } catch (error) {
      // A bad token is each field's own UNAUTHENTICATED error; a limit refuses all.
      if (error instanceof AppError && error.kind === 'rate_limited') stop({ errors: [toGraphQLError(error)] })
      else throw error
    }
  }
  return {
    arrival: {
      async onRequest({ request, url, endResponse, serverContext }) {
        if (url.pathname !== graphqlPath || request.method === 'OPTIONS') return
        try {
          await admitGraphQLRequest(services, contextOf(request, serverContext ?? {}))
        } catch (error) {
          endResponse(graphqlErrorResponse(toAppError(error)))
        }
      },
      // First, so that an operation over WebSocket is counted before its variables are checked.
      onExecute: ({ args, setResultAndStopExecution }) => countExecuted(args, setResultAndStopExecution),
      onSubscribe: ({ args, setResultAndStopExecution }) => countExecuted(args, setResultAndStopExecution),
    },
    operations: {
      async onParams({ params, request, context }) {
        // Without a query Yoga answers its own error; the request was counted as it arrived.
        if (typeof params.query !== 'string') return
        let document: DocumentNode | undefined
        try {
          document = parseBounded(params.query)
          // Yoga's parse takes it from there.
          rememberParsed(request, params.query, document)
        } catch {
          // Yoga parses it again and answers the syntax error.
        }
        await countGraphQLOperation(services, contextOf(request, context), schema, document, params.operationName)
      },
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
