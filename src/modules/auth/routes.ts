import type { Route, RestRequest } from '../../rest.ts'
import { getClientIdentity } from './client-identity.ts'
import { login } from './login.ts'
import { NO_STORE_HEADERS } from './no-store.ts'
import { refresh } from './refresh.ts'

async function loginHandler({ ctx, body }: RestRequest) {
  const { claims, tokens, expires_in } = await login(ctx.services, await body(), ctx.clientIp)
  return { body: { ...claims, tokens, expires_in }, headers: NO_STORE_HEADERS }
}

async function refreshHandler({ ctx, body }: RestRequest) {
  return { body: await refresh(ctx.services, await body(), ctx.clientIp), headers: NO_STORE_HEADERS }
}

export const authRoutes: Route[] = [
  { method: 'POST', path: '/api/sso/v1/auth/login', public: true, handler: loginHandler },
  { method: 'POST', path: '/api/auth/v1/login', public: true, handler: loginHandler },
  { method: 'POST', path: '/api/sso/v1/auth/refresh', public: true, handler: refreshHandler },
  { method: 'POST', path: '/api/auth/v1/refresh', public: true, handler: refreshHandler },
  {
    method: 'GET',
    path: '/api/sso/v1/users/:client_id',
    handler: async ({ ctx, params }) => ({ body: await getClientIdentity(ctx, params.client_id!) }),
  },
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    public: true,
    // Short: a verifier holding a stale copy must refetch on an unknown kid after a rotation anyway.
    handler: ({ ctx }) => ({ body: ctx.services.keys.jwks(), headers: { 'cache-control': 'public, max-age=10' } }),
  },
]
