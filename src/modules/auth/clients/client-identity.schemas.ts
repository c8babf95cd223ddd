import { z } from 'zod'

import { timestampText, uuidText } from '../../../core/response-schemas.ts'

export const clientIdentityParams = z.object({
  client_id: z.string().meta({ description: "A client id: the caller's own (`sub`); admins may read any.", example: '5f0c7e4a-3c1b-4a53-9b7e-2f0d6c1a8e44' }),
})

/** `GET /api/sso/v1/users/<client_id>`: a client's record, its secret excluded. */
export const clientIdentityBody = z
  .object({
    uid: uuidText.meta({ description: 'The client id.' }),
    name: z.string(),
    tenant_id: uuidText,
    roles: z.array(z.string()).meta({ example: ['client'] }),
    scopes: z.array(z.string()).meta({ example: ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write'] }),
    is_active: z.boolean(),
    created_at: timestampText,
    updated_at: timestampText,
  })
  .meta({ id: 'ClientIdentity' })
