import { randomUUID } from 'node:crypto'
import { jwtVerify } from 'jose'
import { z } from 'zod'
import { MESSAGES, publicKeyFor } from '../../auth-context.ts'
import type { Services } from '../../context.ts'
import { AppError, unauthenticated } from '../../errors.ts'
import { parseInput } from '../../validation.ts'
import { nowSeconds, signTokenPair, timestampAt } from './session-tokens.ts'
import { revokeSessionOnReuse } from './sessions.repository.ts'
import { SIGNING_ALG, type KeyStore } from './signing-keys.ts'
import { REFRESH_TOKEN_TYP, type TokenConfig } from './tokens.ts'

export const refreshInput = z.object({
  refresh_token: z.string(),
})

const refreshClaims = z.object({
  sub: z.uuid(),
  jti: z.uuid(),
  session_id: z.uuid(),
  token_type: z.literal('refresh'),
})

const invalidRefreshToken = () => unauthenticated(MESSAGES.invalidFormat)

/** Checks a refresh token's signature and claims; every failure is the seed's "invalid format" 401. */
export async function verifyRefreshToken(keys: KeyStore, config: TokenConfig, token: string) {
  let payload: unknown
  try {
    const result = await jwtVerify(token, (header) => publicKeyFor(keys, header), {
      algorithms: [SIGNING_ALG],
      issuer: config.publicBaseUrl,
      audience: config.tokenAudience,
      typ: REFRESH_TOKEN_TYP,
      clockTolerance: config.clockSkew,
      requiredClaims: ['iat', 'exp', 'jti', 'sub'],
    })
    payload = result.payload
  } catch (error) {
    // A database fault while finding the key is not the token's fault.
    if (error instanceof AppError && error.kind !== 'unauthenticated') throw error
    throw invalidRefreshToken()
  }
  const claims = refreshClaims.safeParse(payload)
  if (!claims.success) throw invalidRefreshToken()
  return claims.data
}

/**
 * A refresh token → a new access and refresh token in the same session (seed 4.2). The token is
 * consumed atomically, so it works once across every process. Presented again after the reuse
 * window, it revokes the whole session (likely theft); inside the window it is only refused, so
 * two instances of one bank racing to refresh do not log each other out.
 */
export async function refresh(
  services: Pick<Services, 'db' | 'sessionWrites' | 'keys' | 'config' | 'revocations' | 'logger' | 'rateLimits' | 'metrics'>,
  input: unknown,
) {
  const { refresh_token } = parseInput(refreshInput, input, 'body')
  const { db, keys, config } = services
  const presented = await verifyRefreshToken(keys, config, refresh_token)
  await services.rateLimits.checkLogin({ clientId: presented.sub })

  const now = nowSeconds()
  const nextJti = randomUUID()
  const rotated = await services.sessionWrites.rotate({
    jti: presented.jti,
    sessionId: presented.session_id,
    clientId: presented.sub,
    nextJti,
    expiresAt: timestampAt(now + config.refreshTokenTtl),
  })
  if (!rotated) {
    const revoked = await revokeSessionOnReuse(db, presented.jti, config.refreshReuseWindow)
    await services.rateLimits.penaliseLogin({ clientId: presented.sub })
    if (revoked) {
      services.metrics.refreshReuseDetected()
      services.revocations.revokeSession(revoked)
      services.logger.warn({ sessionId: revoked, clientId: presented.sub }, 'refresh token reused: session revoked')
    }
    throw invalidRefreshToken()
  }
  const { tokens } = await signTokenPair(
    keys,
    config,
    { clientId: presented.sub, tenantId: rotated.tenant_id, sessionId: rotated.session_id, roles: rotated.roles, scopes: rotated.scopes },
    nextJti,
    now,
  )
  return { status: 'refreshed' as const, tokens, expires_in: config.accessTokenTtl }
}

export type RefreshResult = Awaited<ReturnType<typeof refresh>>
