import type { DocumentedRoute } from '../../../http/router.ts'
import { clientIdentityBody, clientIdentityParams } from './client-identity.schemas.ts'
import { getClientIdentity } from './client-identity.ts'

export const clientIdentityRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/api/sso/v1/users/:client_id',
    handler: async ({ ctx, params }) => ({ body: await getClientIdentity(ctx, params.client_id!) }),
    doc: {
      operationId: 'getClientIdentity',
      summary: "A client's record",
      description: 'Your own client: name, tenant, roles and scopes. Any other id is 403 for non-admins, whether or not it exists.',
      tag: 'auth',
      params: clientIdentityParams,
      responses: { 200: { description: 'The client', body: clientIdentityBody } },
      errors: { forbidden: "Another client's id (for non-admins, whether or not it exists)", not_found: 'Admins only: no client has this id' },
    },
  },
]
