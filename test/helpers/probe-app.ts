import { createSchema } from 'graphql-yoga'
import { sql } from 'kysely'
import { z } from 'zod'

import { routes } from '../../src/app/routes.ts'
import type { AppOptions } from '../../src/app/server.ts'
import type { RequestContext } from '../../src/core/context.ts'
import { AppError } from '../../src/core/errors.ts'
import { parseInput } from '../../src/core/validation.ts'
import type { Route } from '../../src/http/router.ts'

/**
 * The application's routes plus probes for infrastructure tests: an authenticated route, a route
 * that reads a table (optionally by a caller-given `name`), one that validates a body (all public but the first), and stand-ins at the login/refresh paths (secret "right" succeeds, anything
 * else is a 401), so rate limiting, faults and logging are tested apart from the feature modules.
 * `calls` counts the work the probes actually did.
 */
export function probeApp(): AppOptions & { calls: { authenticated: number; login: number; touch: number } } {
  const calls = { authenticated: 0, login: 0, touch: 0 }
  const fakeLogin = async (body: unknown) => {
    calls.login++
    const input = (body ?? {}) as Record<string, unknown>
    if (input.client_secret !== 'right' && input.refresh_token !== 'right') throw new AppError('invalid_credentials')
    return { status: 'ok' }
  }
  const loginRoutes = routes.filter((r) => r.access === 'login')
  const probes: Route[] = [
    {
      method: 'GET',
      path: '/probe/authenticated',
      handler: async ({ ctx }) => {
        const principal = await ctx.auth.require()
        calls.authenticated++
        return { body: { sub: principal.clientId } }
      },
    },
    { method: 'GET', path: '/probe/items/:uid', access: 'public', handler: ({ params }) => ({ body: { uid: params.uid } }) },
    {
      method: 'GET',
      path: '/probe/explode',
      access: 'public',
      handler: () => {
        throw new Error('secret internals: SELECT client_secret FROM clients')
      },
    },
    // A fault past every handler's own error handling: Node refuses the header when writing the head.
    { method: 'GET', path: '/probe/bad-header', access: 'public', handler: () => ({ body: {}, headers: { 'x-probe': 'a\nb' } }) },
    {
      method: 'POST',
      path: '/probe/items',
      access: 'public',
      handler: async ({ body }) => ({ status: 201, body: parseInput(z.object({ name: z.string() }), await body(), 'body') }),
    },
    {
      method: 'GET',
      path: '/probe/clients',
      access: 'public',
      handler: async ({ ctx, query }) => {
        const named = query.name === undefined ? sql`true` : sql`name = ${query.name}`
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from clients where ${named}`.execute(ctx.services.db)
        return { body: { clients: rows[0]!.n } }
      },
    },
    ...loginRoutes.map((route): Route => ({ ...route, handler: async ({ body }) => ({ body: await fakeLogin(await body()) }) })),
  ]
  const schema = createSchema<RequestContext>({
    typeDefs: /* GraphQL */ `
      type Query {
        explode: String!
        me: String!
        clients(name: String): Int!
      }
      type Mutation {
        login(clientId: String!, clientSecret: String!): String!
        refresh(refreshToken: String!): String!
        touch: Int!
      }
    `,
    resolvers: {
      Query: {
        explode: () => {
          throw new Error('secret internals: SELECT client_secret FROM clients')
        },
        me: async (_root, _args, ctx) => (await ctx.auth.require()).clientId,
        clients: async (_root, args: { name?: string | null }, ctx) => {
          const named = args.name == null ? sql`true` : sql`name = ${args.name}`
          return (await sql<{ n: number }>`select count(*)::int as n from clients where ${named}`.execute(ctx.services.db)).rows[0]!.n
        },
      },
      Mutation: {
        login: async (_root, args: { clientSecret: string }) => (await fakeLogin({ client_secret: args.clientSecret })).status,
        refresh: async (_root, args: { refreshToken: string }) => (await fakeLogin({ refresh_token: args.refreshToken })).status,
        touch: async (_root, _args, ctx) => {
          await ctx.auth.require()
          return ++calls.touch
        },
      },
    },
  })
  return { routes: [...routes.filter((r) => r.access !== 'login'), ...probes], schema, calls }
}
