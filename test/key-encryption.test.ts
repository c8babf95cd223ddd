import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.ts'
import { createLogger } from '../src/logger.ts'
import { closeServices, openServices } from '../src/services.ts'
import { createTestClient } from './helpers/auth.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'
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
