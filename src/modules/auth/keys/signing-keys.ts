import { createCipheriv, createDecipheriv, createPrivateKey, type JsonWebKey as NodeJwk, type KeyObject, randomBytes } from 'node:crypto'

import { calculateJwkThumbprint, type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'

import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'
import { SignatureWorker } from './signature-worker.ts'
import {
  insertSigningKey,
  listAllSigningKeys,
  listUsableSigningKeys,
  replacePrivateKey,
  retireSigningKeysBefore,
  type SigningKeyRow,
} from './signing-keys.repository.ts'

export const SIGNING_ALG = 'EdDSA'
const RELOAD_THROTTLE_MS = 1000
/** How often a process re-reads the key set, so a rotation done elsewhere is used for signing within this time. */
export const KEY_RELOAD_INTERVAL_MS = 5000

export interface SigningKey {
  kid: string
  privateKey: CryptoKey
  /** The same key for node:crypto's `sign` (no WebCrypto job per token). */
  privateKeyObject: KeyObject
}

export interface SigningKeyInfo {
  kid: string
  alg: string
  created_at: string
  activated_at: string
  retired_at: string | null
  signing: boolean
}

/**
 * Ed25519 keys live in the database so every process signs and verifies with the same set.
 * A process caches them and reloads on an unknown `kid` (throttled) and periodically, so a
 * rotation done by the CLI or another process is picked up without a restart.
 */
export class KeyStore {
  #signing: SigningKey | undefined
  #publicKeys = new Map<string, CryptoKey>()
  #jwks: { keys: JWK[] } = { keys: [] }
  #lastMissReload = 0
  readonly #reloads = new ReloadLoop(() => this.#load())
  readonly #signatures = new SignatureWorker()

  constructor(
    private readonly db: Db,
    private readonly encryptionKey: string | undefined,
  ) {}

  /** Loads the keys, generating the first one when the database has none. */
  async init(): Promise<void> {
    await this.reload()
    if (!this.#signing) {
      await createSigningKey(this.db, this.encryptionKey)
      await this.reload()
    }
  }

  signingKey(): SigningKey {
    if (!this.#signing) throw new Error('KeyStore used before init()')
    return this.#signing
  }

  /** The base64url signature of a JWS signing input under `key` (one of `signingKey()`'s). */
  sign(key: SigningKey, input: string): Promise<string> {
    return this.#signatures.sign(key.privateKeyObject, input)
  }

  jwks(): { keys: JWK[] } {
    return this.#jwks
  }

  /**
   * The public key for `kid`, reloading from the database when unknown. Such reloads are throttled
   * (at most one a second, so forged kids cannot flood the database) independently of the periodic
   * reload, so a kid minted just after a periodic reload is still found at once.
   */
  async publicKey(kid: string): Promise<CryptoKey | undefined> {
    const known = this.#publicKeys.get(kid)
    if (known) return known
    const loading = this.#reloads.inFlight
    if (loading) {
      await loading
      const loaded = this.#publicKeys.get(kid)
      if (loaded) return loaded
    }
    if (Date.now() - this.#lastMissReload < RELOAD_THROTTLE_MS) return undefined
    this.#lastMissReload = Date.now()
    await this.reload()
    return this.#publicKeys.get(kid)
  }

  /** Synchronous lookup for the hot path; undefined when the key is not cached. */
  cachedPublicKey(kid: string): CryptoKey | undefined {
    return this.#publicKeys.get(kid)
  }

  /** Re-reads the key set every `intervalMs` until `stop()`; failures are reported and retried next time. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#reloads.start(intervalMs, onError)
  }

  /** Stops the periodic reload and waits for one in flight; ends the signing thread (signing goes on, in this thread). */
  async stop(): Promise<void> {
    await Promise.all([this.#reloads.stop(), this.#signatures.close()])
  }

  reload(): Promise<void> {
    return this.#reloads.run()
  }

  async #load(): Promise<void> {
    const rows = await listUsableSigningKeys(this.db)
    const publicKeys = new Map<string, CryptoKey>()
    const jwks: JWK[] = []
    for (const row of rows) {
      const jwk = { ...(row.public_jwk as JWK), kid: row.kid, alg: row.alg, use: 'sig' }
      publicKeys.set(row.kid, (this.#publicKeys.get(row.kid) ?? (await importJWK(jwk, row.alg))) as CryptoKey)
      jwks.push(jwk)
    }
    const newest = rows[0]
    if (newest && newest.kid !== this.#signing?.kid) {
      const privateJwk = decryptPrivateKey(newest.private_key, this.encryptionKey)
      this.#signing = {
        kid: newest.kid,
        privateKey: (await importJWK(privateJwk, newest.alg)) as CryptoKey,
        privateKeyObject: createPrivateKey({ key: privateJwk as NodeJwk, format: 'jwk' }),
      }
    }
    this.#publicKeys = publicKeys
    this.#jwks = { keys: jwks }
  }
}

export async function createSigningKey(db: Db, encryptionKey: string | undefined): Promise<SigningKeyRow> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519', extractable: true })
  const publicJwk = await exportJWK(publicKey)
  const privateJwk = await exportJWK(privateKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  return insertSigningKey(db, {
    kid,
    alg: SIGNING_ALG,
    public_jwk: publicJwk as Record<string, unknown>,
    private_key: encryptPrivateKey(privateJwk, encryptionKey),
  })
}

/**
 * Creates a new signing key. Keys whose successor has been signing for longer than
 * `maxTokenLifetimeSeconds` can have no live token left, so they are retired.
 */
export async function rotateSigningKeys(db: Db, encryptionKey: string | undefined, maxTokenLifetimeSeconds: number) {
  const created = await createSigningKey(db, encryptionKey)
  const keys = await listUsableSigningKeys(db)
  const cutoffMs = Date.now() - maxTokenLifetimeSeconds * 1000
  // keys[i] stopped signing when keys[i-1] was activated.
  let retireBefore: string | undefined
  for (let i = 1; i < keys.length; i++) {
    // At or before: with a lifetime of 0 the key made just now, in the same millisecond as the
    // cutoff (the database's clock, read to the millisecond), already replaces its predecessor.
    if (Date.parse(`${keys[i - 1]!.activated_at.replace(' ', 'T')}Z`) <= cutoffMs) {
      retireBefore = keys[i - 1]!.activated_at
      break
    }
  }
  const retired = retireBefore ? await retireSigningKeysBefore(db, retireBefore) : 0
  return { kid: created.kid, retired }
}

export async function listSigningKeys(db: Db): Promise<SigningKeyInfo[]> {
  const rows = await listAllSigningKeys(db)
  const signingKid = rows.find((r) => r.retired_at === null)?.kid
  return rows.map((r) => ({
    kid: r.kid,
    alg: r.alg,
    created_at: r.created_at,
    activated_at: r.activated_at,
    retired_at: r.retired_at,
    signing: r.kid === signingKid,
  }))
}

const ENVELOPE = 'aes256gcm'
// The full GCM tag: a shorter one would make forging a ciphertext that much easier.
const GCM_TAG_BYTES = 16

/** Whether a stored private key is an encrypted envelope (else it is the JWK in plain JSON). */
export const isEncryptedKey = (stored: string) => stored.startsWith(`${ENVELOPE}.`)

/**
 * Encrypts every private key stored in plain JSON with `encryptionKey` (the `keys encrypt`
 * command, once `KEY_ENCRYPTION_KEY` is set). Each row is rewritten only if it is still the plain
 * text read, so a concurrent run cannot double-encrypt. Returns the kids encrypted.
 */
export async function encryptStoredKeys(db: Db, encryptionKey: string): Promise<string[]> {
  const encrypted: string[] = []
  for (const row of await listAllSigningKeys(db)) {
    if (isEncryptedKey(row.private_key)) continue
    const plain = JSON.parse(row.private_key) as JWK
    if (await replacePrivateKey(db, row.kid, row.private_key, encryptPrivateKey(plain, encryptionKey))) encrypted.push(row.kid)
  }
  return encrypted
}

/** Signing keys whose private part is stored unencrypted. */
export async function countPlainKeys(db: Db): Promise<number> {
  return (await listAllSigningKeys(db)).filter((row) => !isEncryptedKey(row.private_key)).length
}

export function encryptPrivateKey(jwk: JWK, encryptionKey: string | undefined): string {
  const plain = JSON.stringify(jwk)
  if (!encryptionKey) return plain
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(encryptionKey, 'base64url'), iv, { authTagLength: GCM_TAG_BYTES })
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return [ENVELOPE, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
}

export function decryptPrivateKey(stored: string, encryptionKey: string | undefined): JWK {
  if (!isEncryptedKey(stored)) return JSON.parse(stored) as JWK
  if (!encryptionKey) throw new Error('Signing keys are encrypted: set KEY_ENCRYPTION_KEY')
  const [, iv, tag, data] = stored.split('.')
  const tagBytes = Buffer.from(tag ?? '', 'base64url')
  if (tagBytes.length !== GCM_TAG_BYTES) throw new Error(`A signing key's authentication tag is not ${GCM_TAG_BYTES} bytes: the stored key is damaged`)
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(encryptionKey, 'base64url'), Buffer.from(iv!, 'base64url'), { authTagLength: GCM_TAG_BYTES })
  decipher.setAuthTag(tagBytes)
  const plain = Buffer.concat([decipher.update(Buffer.from(data!, 'base64url')), decipher.final()]).toString('utf8')
  return JSON.parse(plain) as JWK
}
