import { z } from 'zod'

import { dpopFailureBody, loginFailureBody, noStoreHeaders } from '../../../http/api-contract.ts'
import type { DocumentedRoute, RestRequest } from '../../../http/router.ts'
import { loginSucceeded } from '../../audit/auth-audit.ts'
import { login } from './login.ts'
import { NO_STORE_HEADERS } from './no-store.ts'
import { refresh } from './refresh.ts'
import { loginInput, loginResponse, refreshFailureBody, refreshInput, refreshResponse } from './sessions.schemas.ts'

async function loginHandler({ ctx, body }: RestRequest) {
  const { claims, tokens, expires_in, token_type } = await login(ctx.services, await body(), ctx.clientIp, ctx.dpop)
  loginSucceeded(ctx, claims)
  return { body: { ...claims, ...(token_type ? { token_type } : {}), tokens, expires_in }, headers: NO_STORE_HEADERS }
}

async function refreshHandler({ ctx, body }: RestRequest) {
  return { body: await refresh(ctx.services, await body(), ctx.clientIp, ctx.dpop), headers: NO_STORE_HEADERS }
}

const LOGIN = {
  summary: 'Log in with client credentials',
  description:
    "Opens a new session: the access token's claims, `tokens.access`, `tokens.refresh` and `expires_in`. Earlier sessions of the client stay valid. Attempts are limited per address and per (client id, address).",
  tag: 'auth',
  body: loginInput,
  bodyExamples: { credentials: { summary: 'Client credentials', value: { client_id: '<CLIENT_ID>', client_secret: '<CLIENT_SECRET>' } } },
  responses: {
    200: { description: 'Logged in', body: loginResponse, headers: noStoreHeaders },
    401: {
      description: 'Wrong client id or secret, or an inactive client; or, for a client that requires DPoP, a missing or refused `DPoP` proof',
      body: z.union([loginFailureBody, dpopFailureBody]),
    },
  },
} as const

const REFRESH = {
  summary: 'Exchange a refresh token for new tokens',
  description:
    'Consumes the refresh token (it works once) and answers a new pair in the same session. A refresh token presented again after `REFRESH_REUSE_WINDOW` seconds revokes its session.',
  tag: 'auth',
  body: refreshInput,
  bodyExamples: { token: { summary: 'A refresh token', value: { refresh_token: '<REFRESH_TOKEN>' } } },
  responses: {
    200: { description: 'New tokens', body: refreshResponse, headers: noStoreHeaders },
    401: {
      description:
        'An unknown, used, revoked or expired refresh token, an access token, or an inactive client; or, for a DPoP-bound session, a missing or refused `DPoP` proof',
      body: z.union([refreshFailureBody, dpopFailureBody]),
    },
  },
} as const

/** Login and refresh, at the reference's paths and at its alternative `/api/auth/v1` prefix. */
export const sessionRoutes: DocumentedRoute[] = [
  { method: 'POST', path: '/api/sso/v1/auth/login', access: 'login', handler: loginHandler, doc: { operationId: 'login', ...LOGIN } },
  {
    method: 'POST',
    path: '/api/auth/v1/login',
    access: 'login',
    handler: loginHandler,
    doc: { operationId: 'loginLegacy', ...LOGIN, deprecated: true, summary: `${LOGIN.summary} (alias of /api/sso/v1/auth/login)` },
  },
  { method: 'POST', path: '/api/sso/v1/auth/refresh', access: 'login', handler: refreshHandler, doc: { operationId: 'refresh', ...REFRESH } },
  {
    method: 'POST',
    path: '/api/auth/v1/refresh',
    access: 'login',
    handler: refreshHandler,
    doc: { operationId: 'refreshLegacy', ...REFRESH, deprecated: true, summary: `${REFRESH.summary} (alias of /api/sso/v1/auth/refresh)` },
  },
]
