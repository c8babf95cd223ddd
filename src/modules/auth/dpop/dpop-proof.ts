import { createHash } from 'node:crypto'

import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose'

import { AppError } from '../../../core/errors.ts'

/**
 * DPoP proofs (RFC 9449 §4.3), checked without state: the replay check is the caller's
 * (`ProofReplays`). What is accepted and why is in docs/dpop.md.
 */

/** Asymmetric algorithms only: never `none` nor an HMAC, which would need a shared secret. */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256'] as const
export const DPOP_PROOF_TYP = 'dpop+jwt'
// An RSA-4096 public key in the header stays well under this; longer text is refused unread.
const MAX_PROOF_LENGTH = 8192
const MAX_JTI_LENGTH = 256
const MAX_HTU_LENGTH = 2048
// The signature part may be empty (`alg: none`): such a proof is refused for its alg, by name.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/
// Members of a private or symmetric JWK (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2).
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const

/** The 401 of a missing or refused proof: `error` is `invalid_dpop_proof`, the challenge names it and the algorithms taken. */
export function invalidDpopProof(message: string): AppError {
  return new AppError('unauthenticated', message, {
    code: 'invalid_dpop_proof',
    headers: { 'www-authenticate': `DPoP error="invalid_dpop_proof", error_description="${message}", algs="${DPOP_ALGORITHMS.join(' ')}"` },
  })
}

/** What a proof must match. */
export interface ProofExpectation {
  htm: string
  /** Normalised (`normaliseHtu`). */
  htu: string
  /** base64url SHA-256 of the access token sent with it, on calls. */
  ath?: string
  /** The thumbprint of the key the token is bound to, when it is. */
  jkt?: string
}

export interface CheckedProof {
  jkt: string
  jti: string
  iat: number
}

/** base64url SHA-256 of an access token: a proof's `ath`. */
interface KnownKey {
  key: Awaited<ReturnType<typeof importJWK>>
  /** RFC 7638 thumbprint (SHA-256). */
  jkt: string
}

// A bound client signs every call with the same key: importing it and hashing its thumbprint on
// each proof cost more than the signature check itself (docs/dpop.md, "Cost"). Keyed by the
// whole header `jwk` and `alg` as sent, so only identical input is ever served from here.
const MAX_KNOWN_KEYS = 256
const knownKeys = new Map<string, Promise<KnownKey>>()

function knownKey(jwk: JWK, alg: string): Promise<KnownKey> {
  const id = `${alg} ${JSON.stringify(jwk)}`
  let known = knownKeys.get(id)
  if (known) return known
  known = (async () => ({ key: await importJWK(jwk, alg), jkt: await calculateJwkThumbprint(jwk, 'sha256') }))()
  // A key that does not import is not kept: the next proof with it is refused the same way.
  known.catch(() => knownKeys.delete(id))
  if (knownKeys.size >= MAX_KNOWN_KEYS) knownKeys.delete(knownKeys.keys().next().value!)
  knownKeys.set(id, known)
  return known
}

export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * `scheme://host[:port]/path` of an http(s) URL as RFC 9449 §4.3 compares it: RFC 3986 syntax- and
 * scheme-based normalisation (case of scheme and host, default port, dot segments, empty path,
 * percent-encoding), query and fragment ignored. Undefined when it is not one.
 */
export function normaliseHtu(text: string): string | undefined {
  if (text.length > MAX_HTU_LENGTH) return undefined
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const path = url.pathname.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16))
    return UNRESERVED.test(char) ? char : escape.toUpperCase()
  })
  return `${url.protocol}//${url.host}${path}`
}

/** Checks a proof's form, key, signature and claims against `expected` at `now` (Unix seconds), `skew` seconds either way. */
export async function checkProof(proof: string | null | undefined, expected: ProofExpectation, now: number, skew: number): Promise<CheckedProof> {
  if (proof === undefined || proof === null || proof === '') throw invalidDpopProof('DPoP proof is missing')
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw invalidDpopProof('DPoP proof is not a compact JWS')
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader(proof)
  } catch {
    throw invalidDpopProof('DPoP proof is not a compact JWS')
  }
  if (header.typ !== DPOP_PROOF_TYP) throw invalidDpopProof('DPoP proof typ must be dpop+jwt')
  const alg = header.alg
  if (typeof alg !== 'string' || !(DPOP_ALGORITHMS as readonly string[]).includes(alg)) {
    throw invalidDpopProof(`DPoP proof alg must be one of ${DPOP_ALGORITHMS.join(', ')}`)
  }
  const jwk = header.jwk as JWK | undefined
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) throw invalidDpopProof('DPoP proof must carry its public key in jwk')
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) throw invalidDpopProof('DPoP proof jwk must not contain a private key')
  let known: KnownKey
  try {
    known = await knownKey(jwk, alg)
  } catch {
    throw invalidDpopProof('DPoP proof jwk is not a public key for its alg')
  }
  const key = known.key
  let payload: Record<string, unknown>
  try {
    payload = (await jwtVerify(proof, key, { typ: DPOP_PROOF_TYP, algorithms: [alg], currentDate: new Date(now * 1000), clockTolerance: skew })).payload
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    throw invalidDpopProof(code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'DPoP proof signature is invalid' : 'DPoP proof is invalid')
  }
  const { jti, htm, htu, iat, ath } = payload
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw invalidDpopProof('DPoP proof jti is missing')
  if (htm !== expected.htm) throw invalidDpopProof('DPoP proof htm does not match the request method')
  if (typeof htu !== 'string' || normaliseHtu(htu) !== expected.htu) throw invalidDpopProof('DPoP proof htu does not match the request URL')
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(now - iat) > skew) throw invalidDpopProof('DPoP proof iat is not within the accepted window')
  if (expected.ath !== undefined && ath !== expected.ath) throw invalidDpopProof('DPoP proof ath does not match the access token')
  const jkt = known.jkt
  if (expected.jkt !== undefined && jkt !== expected.jkt) throw invalidDpopProof('DPoP proof key does not match the key the token is bound to')
  return { jkt, jti, iat }
}
