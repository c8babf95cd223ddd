import type { RestRequest, Route } from '../../../http/router.ts'
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

/** Login and refresh, at the reference's paths and at its alternative `/api/auth/v1` prefix. */
export const sessionRoutes: Route[] = [
  { method: 'POST', path: '/api/sso/v1/auth/login', access: 'login', handler: loginHandler },
  { method: 'POST', path: '/api/auth/v1/login', access: 'login', handler: loginHandler },
  { method: 'POST', path: '/api/sso/v1/auth/refresh', access: 'login', handler: refreshHandler },
  { method: 'POST', path: '/api/auth/v1/refresh', access: 'login', handler: refreshHandler },
]
