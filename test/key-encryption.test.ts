import { randomBytes } from 'node:crypto'

import { afterAll, describe, expect, it } from 'vitest'

import { closeServices, openServices } from '../src/app/services.ts'
import { loadConfig } from '../src/core/config.ts'
import { decryptPrivateKey, encryptPrivateKey } from '../src/modules/auth/keys/signing-keys.ts'
import { createLogger } from '../src/observability/logger.ts'
import { createTestClient } from './helpers/auth.ts'
import { openCli } from './helpers/cli.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'
import { LogSink } from './helpers/log-sink.ts'
import { startTestServer } from './helpers/server.ts'

const databases: TestDatabase[] = []
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()))
})

describe('signing keys at rest', () => {
  it('are encrypted with KEY_ENCRYPTION_KEY and still sign tokens the server accepts', async () => {
    const database = await createTestDatabase()
    databases.push(database)
    const key = randomBytes(32).toString('base64url')
    const server = await startTestServer({ KEY_ENCRYPTION_KEY: key }, database)
    try {
      const rows = await server.services.db.selectFrom('signing_keys').select(['private_key', 'public_jwk']).execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]!.private_key).toMatch(/^aes256gcm\.[\w-]+\.[\w-]+\.[\w-]+$/)
      expect(rows[0]!.private_key).not.toContain('"d"')
      const client = await createTestClient(server)
      const res = await server.request('GET', `/api/sso/v1/users/${client.clientId}`, { token: client.token })
      expect(res.status).toBe(200)
    } finally {
      await server.stop()
    }

    // Without the key (or with another one) the process refuses to start instead of signing badly.
    for (const env of [{}, { KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64url') }]) {
      const config = loadConfig({ LOG_LEVEL: 'silent', ...database.env, ...env })
      await expect(openServices(config, createLogger(config))).rejects.toThrow()
    }
    const config = loadConfig({ LOG_LEVEL: 'silent', ...database.env, KEY_ENCRYPTION_KEY: key })
    const reopened = await openServices(config, createLogger(config))
    await closeServices(reopened)
  })
})

describe('signing keys stored unencrypted', () => {
  const PLAIN_WARNING = 'KEY_ENCRYPTION_KEY is not set: private signing keys are stored unencrypted in the database (see docs/operations.md)'

  it('are warned of at start, encrypted by `keys encrypt`, and not warned of after', async () => {
    const database = await createTestDatabase()
    databases.push(database)
    const sink = new LogSink()
    const plain = await startTestServer({ LOG_LEVEL: 'warn' }, database, { logDestination: sink })
    const kid = plain.services.keys.signingKey().kid
    const client = await createTestClient(plain)
    await plain.stop()
    expect(sink.lines().map((l) => l.msg)).toContain(PLAIN_WARNING)

    const key = randomBytes(32).toString('base64url')
    // The CLI's commands, run in this process on the stopped server's database (test/helpers/cli.ts).
    const cli = await openCli(database)
    try {
      const refused = await cli.run('keys', 'encrypt')
      expect(refused.code).toBe(2)
      expect(refused.stderr).toMatch(/^keys encrypt needs KEY_ENCRYPTION_KEY/)
      const encrypted = await cli.runWith({ KEY_ENCRYPTION_KEY: key }, 'keys', 'encrypt')
      expect(encrypted.stderr).toBe('')
      expect(JSON.parse(encrypted.stdout)).toEqual({ encrypted: [kid] })
      // Run again, there is nothing left to encrypt.
      expect(JSON.parse((await cli.runWith({ KEY_ENCRYPTION_KEY: key }, 'keys', 'encrypt')).stdout)).toEqual({ encrypted: [] })
    } finally {
      await cli.close()
    }

    const quiet = new LogSink()
    const server = await startTestServer({ LOG_LEVEL: 'warn', KEY_ENCRYPTION_KEY: key }, database, { logDestination: quiet })
    try {
      const rows = await server.services.db.selectFrom('signing_keys').select('private_key').execute()
      expect(rows.map((r) => r.private_key.split('.')[0])).toEqual(['aes256gcm'])
      expect(quiet.lines().filter((l) => l.level >= 40)).toEqual([])
      // The same key still signs and verifies: a token issued before the encryption is accepted.
      expect((await server.request('GET', `/api/sso/v1/users/${client.clientId}`, { token: client.token })).status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it('are checked with the full 16-byte GCM tag', () => {
    const key = randomBytes(32).toString('base64url')
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: 'x', d: 'd' }
    const stored = encryptPrivateKey(jwk, key)
    expect(decryptPrivateKey(stored, key)).toEqual(jwk)
    const [envelope, iv, tag, data] = stored.split('.')
    const truncated = [envelope, iv, Buffer.from(tag!, 'base64url').subarray(0, 12).toString('base64url'), data].join('.')
    expect(() => decryptPrivateKey(truncated, key)).toThrow("A signing key's authentication tag is not 16 bytes: the stored key is damaged")
    const flipped = Buffer.from(tag!, 'base64url')
    flipped[0]! ^= 1
    expect(() => decryptPrivateKey([envelope, iv, flipped.toString('base64url'), data].join('.'), key)).toThrow()
  })
})
