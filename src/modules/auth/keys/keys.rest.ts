import { z } from 'zod'

import type { DocumentedRoute } from '../../../http/router.ts'
import { jwksBody } from './keys.schemas.ts'

export const keyRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    access: 'public',
    // Short: a verifier holding a stale copy must refetch on an unknown kid after a rotation anyway.
    handler: ({ ctx }) => ({ body: ctx.services.keys.jwks(), headers: { 'cache-control': 'public, max-age=10' } }),
    doc: {
      operationId: 'getJwks',
      summary: 'The public keys that verify access tokens',
      description: 'Every signing key not yet retired (Ed25519). Fetch again on a token whose `kid` you do not know.',
      tag: 'auth',
      database: false,
      responses: { 200: { description: 'The key set', body: jwksBody, headers: { 'Cache-Control': z.literal('public, max-age=10') } } },
    },
  },
]
