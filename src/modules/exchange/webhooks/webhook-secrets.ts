import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * Endpoint secrets and signatures of the Standard Webhooks scheme (docs/webhooks.md, "Verifying"):
 * a secret is `whsec_` and 32 random bytes in base64; a signature is `v1,` and the base64
 * HMAC-SHA256, keyed with those bytes, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */

const PREFIX = 'whsec_'
const SECRET_BYTES = 32

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/** The `webhook-signature` header: one `v1,` signature per secret in force, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signature(secret, id, timestamp, body)).join(' ')
}

// The same envelope as signing keys' (src/modules/auth/keys/signing-keys.ts): AES-256-GCM with
// KEY_ENCRYPTION_KEY, a fresh 12-byte IV each time and the full 16-byte tag.
const ENVELOPE = 'aes256gcm'
const GCM_TAG_BYTES = 16

/** A secret as stored: encrypted when KEY_ENCRYPTION_KEY is set, else as is (docs/operations.md). */
export function sealSecret(secret: string, encryptionKey: string | undefined): string {
  if (!encryptionKey) return secret
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(encryptionKey, 'base64url'), iv, { authTagLength: GCM_TAG_BYTES })
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return [ENVELOPE, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
}

export function openSecret(stored: string, encryptionKey: string | undefined): string {
  if (!stored.startsWith(`${ENVELOPE}.`)) return stored
  if (!encryptionKey) throw new Error('Webhook secrets are encrypted: set KEY_ENCRYPTION_KEY')
  const [, iv, tag, data] = stored.split('.')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(encryptionKey, 'base64url'), Buffer.from(iv ?? '', 'base64url'), {
    authTagLength: GCM_TAG_BYTES,
  })
  decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(data ?? '', 'base64url')), decipher.final()]).toString('utf8')
}
