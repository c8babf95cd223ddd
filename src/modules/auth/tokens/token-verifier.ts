import { errors as joseErrors, type JWTHeaderParameters, jwtVerify } from 'jose'

import { type DpopRequest, type HeaderVerifier, MESSAGES, type Principal } from '../../../core/auth.ts'
import { AppError, toAppError, unauthenticated } from '../../../core/errors.ts'
import type { Dpop } from '../dpop/dpop.ts'
import { invalidDpopProof } from '../dpop/dpop-proof.ts'
import { type KeyStore, SIGNING_ALG } from '../keys/signing-keys.ts'
import type { RevocationCache } from '../sessions/revocations.ts'
import { ACCESS_TOKEN_TYP, type AccessTokenClaims, type TokenConfig } from './tokens.ts'

// Exactly "Bearer", one space, three base64url parts. Longer headers are refused before the
// pattern runs; our tokens are well under 2 KB.
const MAX_AUTHORIZATION_LENGTH = 8192
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/
// A DPoP-bound token (docs/dpop.md): only tried when the header is not Bearer, so Bearer calls pay nothing for it.
const DPOP = /^DPoP ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/
// Verified tokens kept, keyed by the exact token string (a tampered token is another key).
const VERIFIED_CACHE_SIZE = 10_000

/** The time in whole seconds since the epoch: the wall clock, or a test's. */
export type Clock = () => number
const wallClock: Clock = () => Math.floor(Date.now() / 1000)

/**
 * Access-token verification that reads no database row per request: keys and revocations are
 * cached in memory and refreshed in the background. A token that verified once is remembered,
 * with expiry, key and revocation still checked on every use.
 */
export class TokenVerifier implements HeaderVerifier {
  #verified = new Map<string, { principal: Principal; kid: string }>()

  constructor(
    private readonly keys: KeyStore,
    private readonly config: TokenConfig,
    private readonly revocations: RevocationCache,
    private readonly now: Clock = wallClock,
    private readonly dpop?: Pick<Dpop, 'proveCall'>,
  ) {}

  /**
   * Verifies an `Authorization` header value into a Principal, or throws the reference's 401. A
   * token bound to a DPoP key (`cnf.jkt`) counts only as `DPoP <token>` with a proof by that key.
   */
  async verifyHeader(header: string | null, dpop?: DpopRequest): Promise<Principal> {
    if (header === null || header.trim() === '') throw unauthenticated(MESSAGES.missing)
    const bounded = header.length <= MAX_AUTHORIZATION_LENGTH
    const bearer = bounded ? BEARER.exec(header) : null
    if (bearer) {
      const principal = await this.verifyAccessToken(bearer[1]!)
      if (principal.jkt !== undefined) throw invalidDpopProof('A DPoP-bound token must be sent as Authorization: DPoP <token> with a DPoP proof')
      return principal
    }
    const bound = bounded ? DPOP.exec(header) : null
    if (!bound || !this.dpop) throw unauthenticated(MESSAGES.invalidFormat)
    const principal = await this.verifyAccessToken(bound[1]!)
    if (principal.jkt === undefined) throw invalidDpopProof('The token is not DPoP-bound: send it as Authorization: Bearer <token>')
    await this.dpop.proveCall(dpop, principal.jkt, bound[1]!)
    return principal
  }

  async verifyAccessToken(token: string): Promise<Principal> {
    const principal = this.#remembered(token) ?? (await this.#verify(token))
    if (this.revocations.revokes(principal)) throw unauthenticated(MESSAGES.revoked)
    return principal
  }

  #remembered(token: string): Principal | undefined {
    const hit = this.#verified.get(token)
    if (!hit) return undefined
    if (hit.principal.exp <= this.now() - this.config.clockSkew) {
      this.#verified.delete(token)
      throw unauthenticated(MESSAGES.expired)
    }
    if (!this.keys.cachedPublicKey(hit.kid)) {
      this.#verified.delete(token) // its key was retired: verify afresh
      return undefined
    }
    return hit.principal
  }

  async #verify(token: string): Promise<Principal> {
    let payload: AccessTokenClaims
    let kid: string
    try {
      const result = await jwtVerify<AccessTokenClaims>(token, (header: JWTHeaderParameters) => publicKeyFor(this.keys, header), {
        algorithms: [SIGNING_ALG],
        issuer: this.config.publicBaseUrl,
        audience: this.config.tokenAudience,
        typ: ACCESS_TOKEN_TYP,
        clockTolerance: this.config.clockSkew,
        currentDate: new Date(this.now() * 1000),
        // Also rejects an `iat` in the future (beyond the leeway).
        maxTokenAge: this.config.accessTokenTtl,
        requiredClaims: ['iat', 'exp', 'jti', 'sub'],
      })
      payload = result.payload
      kid = result.protectedHeader.kid!
    } catch (error) {
      throw mapJoseError(error)
    }
    if (
      payload.token_type !== 'access' ||
      payload.client_id !== payload.sub ||
      typeof payload.session_id !== 'string' ||
      typeof payload.tenant_id !== 'string' ||
      !isStringArray(payload.roles) ||
      !isStringArray(payload.scopes) ||
      (payload.cnf !== undefined && typeof payload.cnf?.jkt !== 'string')
    ) {
      throw unauthenticated(MESSAGES.invalidFormat)
    }
    const principal: Principal = Object.freeze({
      clientId: payload.sub,
      tenantId: payload.tenant_id,
      sessionId: payload.session_id,
      roles: Object.freeze([...payload.roles]) as string[],
      scopes: Object.freeze([...payload.scopes]) as string[],
      jti: payload.jti,
      exp: payload.exp,
      ...(payload.cnf ? { jkt: payload.cnf.jkt } : {}),
    })
    if (this.#verified.size >= VERIFIED_CACHE_SIZE) this.#verified.delete(this.#verified.keys().next().value!)
    this.#verified.set(token, { principal, kid })
    return principal
  }
}

/** jose key resolver: our key for the header's `kid`; a token without one is not ours to read. */
export async function publicKeyFor(keys: KeyStore, header: JWTHeaderParameters) {
  if (typeof header.kid !== 'string') throw unauthenticated(MESSAGES.invalidFormat)
  let key
  try {
    key = await keys.publicKey(header.kid)
  } catch (error) {
    throw toAppError(error) // the database, not the token, failed
  }
  if (!key) throw new joseErrors.JWKSNoMatchingKey()
  return key
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string')
}

/** jose errors by `.code` → the reference's 401 messages (MESSAGES). */
export function mapJoseError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const code = (error as { code?: string } | null)?.code
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return unauthenticated(MESSAGES.expired)
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return unauthenticated(MESSAGES.badSignature)
    default:
      return unauthenticated(MESSAGES.invalidFormat)
  }
}
