import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Services } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { parseInput } from '../../validation.ts'
import { secretMatches } from './client-secrets.ts'
import { nowSeconds, signTokenPair, timestampAt } from './session-tokens.ts'
import { tokenSha256 } from './tokens.ts'

export const loginInput = z.object({
  client_id: z.string(),
  client_secret: z.string(),
})
const clientIdFormat = z.uuid()

/**
 * Client credentials → a new session with an access and a refresh token (seed 4.1). Earlier
 * sessions of the client stay valid: a bank may run several systems on one credential.
 */
export async function login(services: Pick<Services, 'sessionWrites' | 'keys' | 'config' | 'rateLimits' | 'metrics'>, input: unknown) {
  const { client_id, client_secret } = parseInput(loginInput, input, 'body')
  const { sessionWrites, keys, config, rateLimits, metrics } = services
  // Per client id (the per-IP half runs before the body is read): a limited attempt does nothing.
  await rateLimits.checkLogin({ clientId: client_id })
  const client = clientIdFormat.safeParse(client_id).success ? await sessionWrites.findClient(client_id) : undefined
  // Compared even when the client is unknown or inactive: every failure costs the same work.
  const secretOk = secretMatches(client_secret, client?.secret_digest)
  if (!client || !secretOk || !client.is_active) {
    metrics.loginFailed()
    await rateLimits.penaliseLogin({ clientId: client_id })
    throw new AppError('invalid_credentials')
  }

  const now = nowSeconds()
  const sessionId = randomUUID()
  const refreshJti = randomUUID()
  // Signed first, so the session is stored with its refresh token's digest; answered only once stored.
  const { claims, tokens } = await signTokenPair(
    keys,
    config,
    { clientId: client.id, tenantId: client.tenant_id, sessionId, roles: client.roles, scopes: client.scopes },
    refreshJti,
    now,
  )
  await sessionWrites.openSession({
    id: sessionId,
    client_id: client.id,
    tenant_id: client.tenant_id,
    expires_at: timestampAt(now + config.refreshTokenTtl),
    refresh_jti: refreshJti,
    refresh_sha256: tokenSha256(tokens.refresh),
  })
  metrics.loginSucceeded()
  return { claims, tokens, expires_in: config.accessTokenTtl }
}

export type LoginResult = Awaited<ReturnType<typeof login>>
