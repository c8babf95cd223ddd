import type { Route } from '../../../http/router.ts'
import { getClientIdentity } from './client-identity.ts'

export const clientIdentityRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/sso/v1/users/:client_id',
    handler: async ({ ctx, params }) => ({ body: await getClientIdentity(ctx, params.client_id!) }),
  },
]
