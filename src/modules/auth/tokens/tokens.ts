import { createHash, randomUUID } from 'node:crypto'

import type { Config } from '../../../core/config.ts'
import { type KeyStore, SIGNING_ALG, type SigningKey } from '../keys/signing-keys.ts'

export type TokenConfig = Pick<Config, 'publicBaseUrl' | 'tokenAudience' | 'accessTokenTtl' | 'refreshTokenTtl' | 'clockSkew'>

/** The access token claims of the API reference, plus `client_id` and `aud` of RFC 9068. */
export interface AccessTokenClaims {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  token_type: 'access'
  session_id: string
  tenant_id: string
  roles: string[]
  scopes: string[]
  amr: string[]
  client_id: string
  /** RFC 9449 §6: the key the token is bound to (DPoP), by RFC 7638 thumbprint. */
  cnf?: { jkt: string }
}

export interface RefreshTokenClaims {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  token_type: 'refresh'
  session_id: string
  tenant_id: string
  /** When the session ends however often it is refreshed (`SESSION_MAX_AGE` after login), Unix seconds. */
  session_exp?: number
  /** The DPoP key the session is bound to: its refreshes need a proof by it. */
  cnf?: { jkt: string }
}

export interface TokenSubject {
  clientId: string
  tenantId: string
  sessionId: string
  roles: string[]
  scopes: string[]
  /** The session's end, Unix seconds: no token of it expires later. */
  sessionExpiresAt?: number
  /** The thumbprint of the DPoP key the tokens are bound to. */
  jkt?: string | undefined
}

/** `lifetime` seconds after `now`, or the session's end when that comes first. */
const expiry = (now: number, lifetime: number, sessionExpiresAt: number | undefined) =>
  sessionExpiresAt === undefined ? now + lifetime : Math.min(now + lifetime, sessionExpiresAt)

export const ACCESS_TOKEN_TYP = 'at+jwt'
export const REFRESH_TOKEN_TYP = 'rt+jwt'

export async function signAccessToken(keys: KeyStore, config: TokenConfig, subject: TokenSubject, now = Math.floor(Date.now() / 1000)) {
  const claims: AccessTokenClaims = {
    iss: config.publicBaseUrl,
    sub: subject.clientId,
    aud: config.tokenAudience,
    iat: now,
    exp: expiry(now, config.accessTokenTtl, subject.sessionExpiresAt),
    jti: randomUUID(),
    token_type: 'access',
    session_id: subject.sessionId,
    tenant_id: subject.tenantId,
    roles: subject.roles,
    scopes: subject.scopes,
    amr: ['client_secret'],
    client_id: subject.clientId,
    ...(subject.jkt === undefined ? {} : { cnf: { jkt: subject.jkt } }),
  }
  return { token: await signJwt(keys, ACCESS_TOKEN_TYP, claims), claims }
}

export async function signRefreshToken(
  keys: KeyStore,
  config: TokenConfig,
  subject: Pick<TokenSubject, 'clientId' | 'tenantId' | 'sessionId' | 'sessionExpiresAt' | 'jkt'>,
  jti: string,
  now = Math.floor(Date.now() / 1000),
) {
  const claims: RefreshTokenClaims = {
    iss: config.publicBaseUrl,
    sub: subject.clientId,
    aud: config.tokenAudience,
    iat: now,
    exp: expiry(now, config.refreshTokenTtl, subject.sessionExpiresAt),
    jti,
    token_type: 'refresh',
    session_id: subject.sessionId,
    tenant_id: subject.tenantId,
    ...(subject.sessionExpiresAt === undefined ? {} : { session_exp: subject.sessionExpiresAt }),
    ...(subject.jkt === undefined ? {} : { cnf: { jkt: subject.jkt } }),
  }
  return { token: await signJwt(keys, REFRESH_TOKEN_TYP, claims), claims }
}

/** What is stored of a refresh token: its SHA-256, in hex. */
export function tokenSha256(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * The compact JWS that jose's `SignJWT` makes of the same header and claims, byte for byte
 * (Ed25519 signatures are deterministic), signed off the event loop by the key store's worker.
 */
async function signJwt(keys: KeyStore, typ: string, claims: AccessTokenClaims | RefreshTokenClaims): Promise<string> {
  const key = keys.signingKey()
  const input = `${encodedHeader(key, typ)}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  return `${input}.${await keys.sign(key, input)}`
}

const encodedHeaders = new WeakMap<SigningKey, Map<string, string>>()

/** A key's protected header for one token type, encoded once: every token of that kind repeats it. */
function encodedHeader(key: SigningKey, typ: string): string {
  let byTyp = encodedHeaders.get(key)
  if (!byTyp) encodedHeaders.set(key, (byTyp = new Map()))
  let header = byTyp.get(typ)
  if (header === undefined) byTyp.set(typ, (header = Buffer.from(JSON.stringify({ alg: SIGNING_ALG, kid: key.kid, typ })).toString('base64url')))
  return header
}
