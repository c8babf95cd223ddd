import type { Route } from '../../../http/router.ts'
import { createUser, getUser, listUsers } from './users.ts'

export const userRoutes: Route[] = [
  { method: 'GET', path: '/api/user/v1/users', handler: async ({ ctx, query }) => ({ body: await listUsers(ctx, query) }) },
  {
    method: 'POST',
    path: '/api/user/v1/users',
    handler: async ({ ctx, body }) => ({ status: 201, body: await createUser(ctx, body) }),
  },
  { method: 'GET', path: '/api/user/v1/users/:uid', handler: async ({ ctx, params }) => ({ body: await getUser(ctx, params.uid!) }) },
]
