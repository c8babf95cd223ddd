import type { Route } from '../../../http/router.ts'

export const keyRoutes: Route[] = [
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    access: 'public',
    // Short: a verifier holding a stale copy must refetch on an unknown kid after a rotation anyway.
    handler: ({ ctx }) => ({ body: ctx.services.keys.jwks(), headers: { 'cache-control': 'public, max-age=10' } }),
  },
]
