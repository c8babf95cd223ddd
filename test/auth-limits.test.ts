import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src/modules/auth/clients.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const TOO_MANY = { message: 'Too many requests', error: 'rate_limited', detail: 'Too many requests' }
const FAILED = { message: { en: 'Authentication failed' }, error: 'invalid_credentials', detail: 'Authentication failed' }

let server: TestServer
let ipCounter = 0
// Every request from its own address, so only the per-client-id limit can bite.
const freshIp = () => ({ 'x-forwarded-for': `198.51.100.${++ipCounter}` })

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_MIN: '4', TRUST_PROXY: 'true' })
})
afterAll(async () => {
  await server?.close()
})

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  const line = text.split('\n').find((l) => l.startsWith(name))
  return line ? Number(line.split(' ').at(-1)) : 0
}

describe('login and refresh limits per client id', () => {
  it('counts attempts per client id across addresses, failures double, and refuses before checking the secret', async () => {
    const bank = await createClient(server.services.db, { name: 'Limited Bank' })
    const other = await createClient(server.services.db, { name: 'Other Bank' })
    const login = (client_id: string, client_secret: string) =>
      server.request('POST', '/api/sso/v1/auth/login', { body: { client_id, client_secret }, headers: freshIp() })

    const okBefore = await metric('auth_logins_total{result="ok"}')
    const failedBefore = await metric('auth_logins_total{result="failed"}')
    expect((await login(bank.client_id, bank.client_secret)).status).toBe(200) // 1 point
    const wrong = await login(bank.client_id, 'wrong') // 2 points
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual(FAILED)
    expect((await login(bank.client_id, bank.client_secret)).status).toBe(200) // 4 points: the limit
    const refused = await login(bank.client_id, bank.client_secret)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // A refused attempt opened no session.
    const sessions = await server.services.db.selectFrom('sessions').select('id').where('client_id', '=', bank.client_id).execute()
    expect(sessions).toHaveLength(2)
    // Another client is not affected.
    expect((await login(other.client_id, other.client_secret)).status).toBe(200)
    expect(await metric('auth_logins_total{result="ok"}')).toBe(okBefore + 3)
    expect(await metric('auth_logins_total{result="failed"}')).toBe(failedBefore + 1)

    // Refresh counts against the same allowance of the token's client.
    const tokens = (await login(other.client_id, other.client_secret)).body.tokens
    expect((await server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: tokens.refresh }, headers: freshIp() })).status).toBe(200)
    const limited = await server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: tokens.refresh }, headers: freshIp() })
    // Used token: a failure (401) that also costs double, after which the client is over its limit.
    expect(limited.status).toBe(401)
    const after = await login(other.client_id, other.client_secret)
    expect(after.status).toBe(429)
  })

  it('counts refresh-token reuse that revokes a session', async () => {
    const reuse = await startTestServer({ REFRESH_REUSE_WINDOW: '0' })
    try {
      const bank = await createClient(reuse.services.db, { name: 'Reuse Bank' })
      const tokens = (await reuse.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.client_id, client_secret: bank.client_secret } })).body.tokens
      const read = async () => {
        const text = await (await fetch(`${reuse.url}/metrics`)).text()
        return Number(text.split('\n').find((l) => l.startsWith('auth_refresh_reuse_detected_total'))?.split(' ').at(-1) ?? 0)
      }
      const before = await read()
      expect((await reuse.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: tokens.refresh } })).status).toBe(200)
      await new Promise((r) => setTimeout(r, 1100))
      expect((await reuse.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: tokens.refresh } })).status).toBe(401)
      expect(await read()).toBe(before + 1)
    } finally {
      await reuse.close()
    }
  })
})
