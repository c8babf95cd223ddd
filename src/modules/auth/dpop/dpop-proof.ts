import { constants, createHash, KeyObject, verify } from 'node:crypto'

import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK } from 'jose'

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

/** A proof's signature check: `input` is the ASCII of `header.payload`, `signature` the decoded third part. */
type SignatureCheck = (input: Buffer, signature: Buffer) => boolean

interface KnownKey {
  /** Undefined when jose's verification would have refused the key (below). */
  verifies: SignatureCheck | undefined
  /** RFC 7638 thumbprint (SHA-256). */
  jkt: string
}

/** A protected header that passed every check, as sent: its `alg` and `jwk`, the key imported on first need. */
interface KnownHeader {
  alg: string
  jwk: JWK
  key?: Promise<KnownKey>
}

// A bound client sends one protected header (typ, alg, jwk) with every proof: importing its key and
// hashing its thumbprint per proof cost more than the signature check itself, and decoding and
// checking it again gives the same answer (docs/dpop.md, "Cost"). All are done once per distinct
// header, keyed by its encoded text exactly as sent, so only identical input is ever served from
// here; a refused header is not kept.
const MAX_KNOWN_HEADERS = 256
const knownHeaders = new Map<string, KnownHeader>()

function checkedHeader(encoded: string): KnownHeader {
  const known = knownHeaders.get(encoded)
  if (known) return known
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader({ protected: encoded })
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
  // No header extension is understood here, so none may be marked critical.
  if (header.crit !== undefined) throw invalidDpopProof('DPoP proof is invalid')
  const checked: KnownHeader = { alg, jwk }
  if (knownHeaders.size >= MAX_KNOWN_HEADERS) knownHeaders.delete(knownHeaders.keys().next().value!)
  knownHeaders.set(encoded, checked)
  return checked
}

function knownKey(header: KnownHeader): Promise<KnownKey> {
  if (header.key) return header.key
  const { alg, jwk } = header
  const key = (async () => ({ verifies: signatureCheck(alg, await importJWK(jwk, alg)), jkt: await calculateJwkThumbprint(jwk, 'sha256') }))()
  header.key = key
  // A key that does not import is not kept: the next proof with it is refused the same way.
  key.catch(() => {
    if (header.key === key) delete header.key
  })
  return key
}

/**
 * The signature check of a key jose imported, in node:crypto: jose 6 verifies only through
 * WebCrypto, asynchronously on the thread pool, which cost more than the check itself
 * (docs/dpop.md, "Cost"). jose still imports the key, so which JWKs are taken does not change.
 * Like jose's verification, a key whose `key_ops` leave out `verify`, or an RSA key under 2048
 * bits, checks nothing.
 */
function signatureCheck(alg: string, imported: CryptoKey | Uint8Array): SignatureCheck | undefined {
  if (imported instanceof Uint8Array || !imported.usages.includes('verify')) return undefined
  const rsaBits = (imported.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength
  if ((alg === 'RS256' || alg === 'PS256') && !(typeof rsaBits === 'number' && rsaBits >= 2048)) return undefined
  const key = KeyObject.from(imported)
  switch (alg) {
    case 'ES256':
      return (input, signature) => verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature)
    case 'EdDSA':
      return (input, signature) => verify(null, input, key, signature)
    case 'RS256':
      return (input, signature) => verify('sha256', input, { key, padding: constants.RSA_PKCS1_PADDING }, signature)
    case 'PS256':
      return (input, signature) => verify('sha256', input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature)
    default:
      return undefined
  }
}

/** Whether `check` verifies `signature` (base64url) over `input`; malformed or wrong-length is false, never a throw. */
function signatureVerifies(check: SignatureCheck, input: string, signature: string): boolean {
  // Base64url of 4n+1 characters decodes to no whole byte sequence: jose's decoder refuses it.
  if (signature.length % 4 === 1) return false
  try {
    return check(Buffer.from(input, 'latin1'), Buffer.from(signature, 'base64url'))
  } catch {
    return false
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** A proof's claims as jwtVerify read them: strict UTF-8 JSON, a top-level object. Undefined when not. */
function decodeClaims(encoded: string): Record<string, unknown> | undefined {
  if (encoded.length % 4 === 1) return undefined
  let claims: unknown
  try {
    claims = JSON.parse(strictUtf8.decode(Buffer.from(encoded, 'base64url')))
  } catch {
    return undefined
  }
  return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined
}

/** `exp` and `nbf`, optional in a proof, honoured as jwtVerify did with `skew` as its clockTolerance. */
function withinLifetime(claims: Record<string, unknown>, now: number, skew: number): boolean {
  const { exp, nbf } = claims
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + skew)) return false
  if (exp !== undefined && (typeof exp !== 'number' || exp <= now - skew)) return false
  return true
}

/** base64url SHA-256 of an access token: a proof's `ath`. */
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

/**
 * Checks a proof's form, key, signature and claims against `expected` at `now` (Unix seconds),
 * `skew` seconds either way. Everything that needs no key is checked first, so a malformed or
 * mismatched proof costs no import and no signature check (docs/dpop.md, "Cost").
 */
export async function checkProof(proof: string | null | undefined, expected: ProofExpectation, now: number, skew: number): Promise<CheckedProof> {
  if (proof === undefined || proof === null || proof === '') throw invalidDpopProof('DPoP proof is missing')
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw invalidDpopProof('DPoP proof is not a compact JWS')
  const payloadEnd = proof.lastIndexOf('.')
  const headerEnd = proof.indexOf('.')
  const header = checkedHeader(proof.slice(0, headerEnd))
  const payload = decodeClaims(proof.slice(headerEnd + 1, payloadEnd))
  if (!payload || !withinLifetime(payload, now, skew)) throw invalidDpopProof('DPoP proof is invalid')
  const { jti, htm, htu, iat, ath } = payload
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw invalidDpopProof('DPoP proof jti is missing')
  if (htm !== expected.htm) throw invalidDpopProof('DPoP proof htm does not match the request method')
  if (typeof htu !== 'string' || !htuMatches(htu, expected.htu)) throw invalidDpopProof('DPoP proof htu does not match the request URL')
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(now - iat) > skew) throw invalidDpopProof('DPoP proof iat is not within the accepted window')
  if (expected.ath !== undefined && ath !== expected.ath) throw invalidDpopProof('DPoP proof ath does not match the access token')
  let known: KnownKey
  try {
    known = await knownKey(header)
  } catch {
    throw invalidDpopProof('DPoP proof jwk is not a public key for its alg')
  }
  const jkt = known.jkt
  if (expected.jkt !== undefined && jkt !== expected.jkt) throw invalidDpopProof('DPoP proof key does not match the key the token is bound to')
  if (!known.verifies) throw invalidDpopProof('DPoP proof is invalid')
  if (!signatureVerifies(known.verifies, proof.slice(0, payloadEnd), proof.slice(payloadEnd + 1))) throw invalidDpopProof('DPoP proof signature is invalid')
  return { jkt, jti, iat }
}

/**
 * A proof's `htu` against the request's (normalised): a client sending the normalised form itself,
 * as most do, is matched without parsing it (normalising a normalised URL changes nothing).
 */
function htuMatches(htu: string, expected: string): boolean {
  if (htu.length > MAX_HTU_LENGTH) return false
  return htu === expected || normaliseHtu(htu) === expected
}
