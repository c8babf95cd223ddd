import { randomUUID } from 'node:crypto'

import { z } from 'zod'

import type { DpopRequest } from '../../../core/auth.ts'
import type { Services } from '../../../core/context.ts'
import { AppError } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import { loginFailed } from '../../audit/auth-audit.ts'
import { assertAddressAllowed } from '../addresses/allowed-addresses.ts'
import { secretMatches } from '../clients/client-secrets.ts'
import { tokenSha256 } from '../tokens/tokens.ts'
import { nowSeconds, signTokenPair, timestampAt } from './session-tokens.ts'
import { loginInput } from './sessions.schemas.ts'

const clientIdFormat = z.uuid()

/**
 * Client credentials → a new session with an access and a refresh token. Earlier sessions of the
 * client stay valid: a bank may run several systems on one credential. `ip` is the caller's
 * address: attempts count per (client id, address), so a stranger's failures never use up the
 * allowance of the client's own address (docs/operations.md, "Rate limits").
 */
export async function login(
  services: Pick<Services, 'sessionWrites' | 'keys' | 'config' | 'rateLimits' | 'metrics' | 'audit' | 'addresses' | 'dpop'>,
  input: unknown,
  ip: string,
  dpop?: DpopRequest,
) {
  const { client_id, client_secret } = parseInput(loginInput, input, 'body')
  const { sessionWrites, keys, config, rateLimits, metrics } = services
  const limitKeys = { client: { id: client_id, ip } }
  // The per-address half ran before the body was read; a limited attempt does nothing.
  await rateLimits.checkLogin(limitKeys)
  const client = clientIdFormat.safeParse(client_id).success ? await sessionWrites.findClient(client_id) : undefined
  // Compared even when the client is unknown or inactive: every failure costs the same work.
  const secretOk = secretMatches(client_secret, client?.secret_digest)
  if (!client || !secretOk || !client.is_active) {
    metrics.loginFailed()
    loginFailed(services.audit, client_id, client?.tenant_id ?? null, ip)
    await rateLimits.penaliseLogin(limitKeys)
    throw new AppError('invalid_credentials')
  }
  assertAddressAllowed(services, { clientId: client.id, tenantId: client.tenant_id }, ip, 'login')
  // A client bound to DPoP proves its key too; the tokens are bound to it (docs/dpop.md).
  const jkt = client.dpop_required ? await services.dpop.proveKey(dpop).catch(refusedAfter(() => rateLimits.penaliseLogin(limitKeys))) : undefined

  const now = nowSeconds()
  const sessionId = randomUUID()
  const refreshJti = randomUUID()
  const sessionExpiresAt = now + config.sessionMaxAge
  // Signed first, so the session is stored with its refresh token's digest; answered only once stored.
  const { claims, tokens, refreshExpiresAt } = await signTokenPair(
    keys,
    config,
    { clientId: client.id, tenantId: client.tenant_id, sessionId, roles: client.roles, scopes: client.scopes, sessionExpiresAt, jkt },
    refreshJti,
    now,
  )
  await sessionWrites.openSession({
    id: sessionId,
    client_id: client.id,
    tenant_id: client.tenant_id,
    expires_at: timestampAt(refreshExpiresAt),
    refresh_jti: refreshJti,
    refresh_sha256: tokenSha256(tokens.refresh),
  })
  metrics.loginSucceeded()
  // Shorter than ACCESS_TOKEN_TTL only in the session's last minutes.
  return { claims, tokens, expires_in: claims.exp - now, token_type: jkt === undefined ? undefined : ('DPoP' as const) }
}

/** Counts a refused proof against the login limit, then refuses. */
const refusedAfter = (count: () => Promise<unknown>) => async (error: unknown) => {
  await count()
  throw error
}

export type LoginResult = Awaited<ReturnType<typeof login>>
