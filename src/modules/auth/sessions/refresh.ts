import { randomUUID } from 'node:crypto'

import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { z } from 'zod'

import { type DpopRequest, MESSAGES } from '../../../core/auth.ts'
import type { Services } from '../../../core/context.ts'
import { AppError, unauthenticated } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import { refreshReused } from '../../audit/auth-audit.ts'
import { assertAddressAllowed } from '../addresses/allowed-addresses.ts'
import { type KeyStore, SIGNING_ALG } from '../keys/signing-keys.ts'
import { publicKeyFor } from '../tokens/token-verifier.ts'
import { REFRESH_TOKEN_TYP, signAccessToken, signRefreshToken, type TokenConfig, tokenSha256 } from '../tokens/tokens.ts'
import { nowSeconds, timestampAt, type TokenSet } from './session-tokens.ts'
import type { ClientClaims } from './session-writes.ts'
import { revokeSessionOnReuse } from './sessions.repository.ts'
import { refreshInput } from './sessions.schemas.ts'

const refreshClaims = z.object({
  sub: z.uuid(),
  jti: z.uuid(),
  session_id: z.uuid(),
  tenant_id: z.uuid(),
  token_type: z.literal('refresh'),
  // Absent from tokens issued before sessions had an absolute end.
  session_exp: z.number().int().optional(),
  // A session bound to a DPoP key (docs/dpop.md).
  cnf: z.object({ jkt: z.string() }).optional(),
})
type PresentedRefreshToken = z.infer<typeof refreshClaims>

const invalidRefreshToken = () => unauthenticated(MESSAGES.invalidFormat)
// Ours are well under 1 KB: longer text is refused before it is decoded.
const MAX_REFRESH_TOKEN_LENGTH = 4096

/** Checks a refresh token's signature and claims; every failure is the reference's "JWT has an invalid format" 401. */
export async function verifyRefreshToken(keys: KeyStore, config: TokenConfig, token: string): Promise<PresentedRefreshToken> {
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
 * A refresh token read without checking its signature: what it would be if it is one this service
 * issued. Only its stored digest can make it count (`rotateRefreshTokens`), and that proves it byte
 * for byte, signature included. The rest of what `verifyRefreshToken` checks is checked here too
 * (header, key not retired, issuer, audience, expiry), so both ways refuse the same tokens.
 * Undefined when it cannot be one of ours as it stands; the signature check then has the last word.
 */
function readIssuedRefreshToken(keys: KeyStore, config: TokenConfig, token: string): PresentedRefreshToken | undefined {
  let h: ReturnType<typeof decodeProtectedHeader>
  let p: ReturnType<typeof decodeJwt>
  try {
    h = decodeProtectedHeader(token)
    p = decodeJwt(token)
  } catch {
    return undefined
  }
  if (h.alg !== SIGNING_ALG || h.typ !== REFRESH_TOKEN_TYP || 'crit' in h) return undefined
  if (typeof h.kid !== 'string' || !keys.cachedPublicKey(h.kid)) return undefined
  if (p.iss !== config.publicBaseUrl || p.aud !== config.tokenAudience) return undefined
  if (typeof p.iat !== 'number' || typeof p.exp !== 'number' || p.exp <= nowSeconds() - config.clockSkew) return undefined
  const claims = refreshClaims.safeParse(p)
  return claims.success ? claims.data : undefined
}

/**
 * A refresh token → a new access and refresh token in the same session. The token is consumed
 * atomically, so it works once across every process. Presented again after the reuse window, it
 * revokes the whole session (likely theft); inside the window it is only refused, so two instances
 * of one bank racing to refresh do not log each other out. No token outlives the session's
 * absolute end (`SESSION_MAX_AGE` after login).
 *
 * An attempt counts against its client (per client id and the caller's address `ip`) only once the
 * token is proven genuine, by its stored digest or its signature: forged tokens naming a client cost
 * that client nothing (docs/operations.md, "Rate limits"). A client whose allowance is used up is
 * refused before any work.
 */
export async function refresh(
  services: Pick<Services, 'db' | 'sessionWrites' | 'keys' | 'config' | 'revocations' | 'logger' | 'rateLimits' | 'metrics' | 'audit' | 'addresses' | 'dpop'>,
  input: unknown,
  ip: string,
  dpop?: DpopRequest,
) {
  const { refresh_token } = parseInput(refreshInput, input, 'body')
  if (refresh_token.length > MAX_REFRESH_TOKEN_LENGTH) throw invalidRefreshToken()
  const { db, keys, config, rateLimits } = services
  const issued = readIssuedRefreshToken(keys, config, refresh_token)
  const presented = issued ?? (await verifyRefreshToken(keys, config, refresh_token))
  const limitKeys = { client: { id: presented.sub, ip } }
  await rateLimits.peekLogin(limitKeys)
  // Refused only once proven genuine: a forged token says nothing of a client's list.
  if (!services.addresses.allows(presented.sub, ip)) {
    if (issued) await verifyRefreshToken(keys, config, refresh_token)
    assertAddressAllowed(services, { clientId: presented.sub, tenantId: presented.tenant_id }, ip, 'refresh')
  }
  // A bound session is refreshed only with a proof by its key, before the token is consumed.
  const jkt = presented.cnf && (await services.dpop.proveKey(dpop, presented.cnf.jkt))

  const now = nowSeconds()
  // A session's end travels in its refresh tokens; the rotation holds the last word on it anyway.
  const sessionExpiresAt = presented.session_exp
  if (sessionExpiresAt !== undefined && sessionExpiresAt <= now) throw invalidRefreshToken()
  const nextJti = randomUUID()
  const subject = { clientId: presented.sub, tenantId: presented.tenant_id, sessionId: presented.session_id, sessionExpiresAt, jkt }
  // The access token is signed with the client's last known claims beside the refresh token, so
  // one trip to the signing thread serves both; the rotation's answer decides whether it stands.
  const guess = services.sessionWrites.lastClaims(presented.sub)
  const [next, early] = await Promise.all([
    signRefreshToken(keys, config, subject, nextJti, now),
    guess && signAccessToken(keys, config, { ...subject, tenantId: guess.tenant_id, roles: guess.roles, scopes: guess.scopes }, now),
  ])
  const rotation = {
    jti: presented.jti,
    sessionId: presented.session_id,
    clientId: presented.sub,
    tenantId: presented.tenant_id,
    presentedSha256: tokenSha256(refresh_token),
    signatureChecked: !issued,
    nextJti,
    nextSha256: tokenSha256(next.token),
    expiresAt: timestampAt(next.claims.exp),
  }
  let rotated = await services.sessionWrites.rotate(rotation)
  if (!rotated && issued) {
    // Not the digest of a token issued: one issued before digests were kept, a used one, or a
    // forgery. Its signature decides before anything else is done with it.
    await verifyRefreshToken(keys, config, refresh_token)
    rotated = await services.sessionWrites.rotate({ ...rotation, signatureChecked: true })
  }
  if (!rotated) {
    // Proven genuine by its signature by now (a forgery was refused above): the failure is the client's.
    const revoked = await revokeSessionOnReuse(db, presented.jti, config.refreshReuseWindow)
    await rateLimits.penaliseLogin(limitKeys, 2)
    await refreshReused(services.audit, presented, ip, revoked)
    if (revoked) {
      services.metrics.refreshReuseDetected()
      services.revocations.revokeSession(revoked)
      services.logger.warn({ sessionId: revoked, clientId: presented.sub }, 'refresh token reused: session revoked')
    }
    throw invalidRefreshToken()
  }
  await rateLimits.penaliseLogin(limitKeys)
  // The session's expiry as the rotation set it: the access token never outlives it, even when the
  // presented token did not carry the session's end or SESSION_MAX_AGE was lowered since.
  const sessionEnd = secondsOf(rotated.expires_at)
  const access =
    early && guess && sameClaims(guess, rotated) && early.claims.exp <= sessionEnd
      ? early
      : await signAccessToken(
          keys,
          config,
          { ...subject, tenantId: rotated.tenant_id, roles: rotated.roles, scopes: rotated.scopes, sessionExpiresAt: sessionEnd },
          now,
        )
  return {
    status: 'refreshed' as const,
    tokens: { access: access.token, refresh: next.token } satisfies TokenSet,
    expires_in: access.claims.exp - now,
    ...(jkt === undefined ? {} : { token_type: 'DPoP' as const }),
  }
}

/** `timestamp(6)` text of a UTC instant → Unix seconds. */
const secondsOf = (timestamp: string) => Math.floor(Date.parse(`${timestamp.replace(' ', 'T')}Z`) / 1000)

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i])
const sameClaims = (a: ClientClaims, b: ClientClaims) => a.tenant_id === b.tenant_id && sameList(a.roles, b.roles) && sameList(a.scopes, b.scopes)

export type RefreshResult = Awaited<ReturnType<typeof refresh>>
