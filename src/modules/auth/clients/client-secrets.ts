import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, base64url: 256 bits, so a fast digest is as safe as a slow hash and keeps login fast. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url')
}

// Compared against when the client is unknown, so both paths do the same work (no timing oracle).
const DUMMY_DIGEST = digestSecret(generateClientSecret())

/** Constant-time check of `secret` against a stored digest (or a dummy when there is none). */
export function secretMatches(secret: string, storedDigest: string | undefined): boolean {
  const presented = Buffer.from(digestSecret(secret), 'base64url')
  const stored = Buffer.from(storedDigest ?? DUMMY_DIGEST, 'base64url')
  const equal = stored.length === presented.length && timingSafeEqual(stored, presented)
  return equal && storedDigest !== undefined
}
