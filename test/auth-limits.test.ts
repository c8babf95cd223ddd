import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient } from '../src/modules/auth/clients/clients.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const TOO_MANY = { message: 'Too many requests', error: 'rate_limited', detail: 'Too many requests' }
const FAILED = { message: { en: 'Authentication failed' }, error: 'invalid_credentials', detail: 'Authentication failed' }

let server: TestServer

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

describe('login and refresh limits per address and per (client id, address)', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip })
  const login = (client_id: string, client_secret: string, ip: string) =>
    server.request('POST', '/api/sso/v1/auth/login', { body: { client_id, client_secret }, headers: from(ip) })
  const refresh = (refresh_token: string, ip: string) => server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token }, headers: from(ip) })

  it('counts attempts of a client from one address, failures double, and refuses before checking the secret', async () => {
    const bank = await createClient(server.services.db, { name: 'Limited Bank' })
    const other = await createClient(server.services.db, { name: 'Other Bank' })
    const okBefore = await metric('auth_logins_total{result="ok"}')
    const failedBefore = await metric('auth_logins_total{result="failed"}')
    expect((await login(bank.client_id, bank.client_secret, '198.51.100.10')).status).toBe(200) // 1 point
    const wrong = await login(bank.client_id, 'wrong', '198.51.100.10') // 2 points
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual(FAILED)
    expect((await login(bank.client_id, bank.client_secret, '198.51.100.10')).status).toBe(200) // 4 points: the limit
    const refused = await login(bank.client_id, bank.client_secret, '198.51.100.10')
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // A refused attempt opened no session.
    const sessions = await server.services.db.selectFrom('sessions').select('id').where('client_id', '=', bank.client_id).execute()
    expect(sessions).toHaveLength(2)
    // The same client from its other address, and another client, are not affected.
    expect((await login(bank.client_id, bank.client_secret, '198.51.100.11')).status).toBe(200)
    expect((await login(other.client_id, other.client_secret, '198.51.100.12')).status).toBe(200)
    expect(await metric('auth_logins_total{result="ok"}')).toBe(okBefore + 4)
    expect(await metric('auth_logins_total{result="failed"}')).toBe(failedBefore + 1)

    // Refresh counts against the same allowance of the token's client at that address.
    const tokens = (await login(other.client_id, other.client_secret, '198.51.100.13')).body.tokens
    expect((await refresh(tokens.refresh, '198.51.100.13')).status).toBe(200)
    // A used token: a failure (401) of a genuine token, which costs its client double.
    expect((await refresh(tokens.refresh, '198.51.100.13')).status).toBe(401)
    expect((await login(other.client_id, other.client_secret, '198.51.100.13')).status).toBe(429)
  })

  it('never lets a stranger who knows a client id lock that client out of its own address', async () => {
    const bank = await createClient(server.services.db, { name: 'Targeted Bank' })
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await login(bank.client_id, 'guess', '203.0.113.66')).status)
    expect(statuses.slice(0, 2)).toEqual([401, 401])
    expect(new Set(statuses.slice(2))).toEqual(new Set([429]))
    const own = await login(bank.client_id, bank.client_secret, '198.51.100.20')
    expect(own.status).toBe(200)
    expect(own.body.sub).toBe(bank.client_id)
  })

  it('counts a refresh against its client only once the token is proven genuine', async () => {
    const bank = await createClient(server.services.db, { name: 'Refreshing Bank' })
    const tokens = (await login(bank.client_id, bank.client_secret, '198.51.100.30')).body.tokens
    const [header, payload] = (tokens.refresh as string).split('.')
    // Well-formed tokens naming the bank, with a signature that is not ours.
    const forged = (n: number) => `${header}.${payload}.${Buffer.from(`forged-${n}`.padEnd(64, 'x')).toString('base64url')}`
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await refresh(forged(i), '203.0.113.77')).status)
    expect(statuses.slice(0, 2)).toEqual([401, 401])
    expect(new Set(statuses.slice(2))).toEqual(new Set([429]))
    // Three forged tokens from the bank's own address cost its per-address allowance (1 of 4 left
    // after the login), never the bank's own: its real refresh still works there.
    const first = await refresh(forged(99), '198.51.100.31')
    expect(first.status).toBe(401)
    const genuine = await refresh(tokens.refresh, '198.51.100.30')
    expect(genuine.status).toBe(200)
    expect(genuine.body.status).toBe('refreshed')
    // Its genuine refreshes do count: 1 (login) + 3 refreshes fill the bank's allowance at that address.
    let next = genuine.body.tokens.refresh
    for (let i = 0; i < 2; i++) {
      const res = await refresh(next, '198.51.100.30')
      expect(res.status).toBe(200)
      next = res.body.tokens.refresh
    }
    const over = await refresh(next, '198.51.100.30')
    expect(over.status).toBe(429)
    expect(over.body).toEqual(TOO_MANY)
    // Refused before any work: the token was not consumed and works from another address.
    expect((await refresh(next, '198.51.100.32')).status).toBe(200)
  })

  it('counts refresh-token reuse that revokes a session', async () => {
    const reuse = await startTestServer({ REFRESH_REUSE_WINDOW: '0' })
    try {
      const bank = await createClient(reuse.services.db, { name: 'Reuse Bank' })
      const tokens = (await reuse.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.client_id, client_secret: bank.client_secret } })).body
        .tokens
      const read = async () => {
        const text = await (await fetch(`${reuse.url}/metrics`)).text()
        return Number(
          text
            .split('\n')
            .find((l) => l.startsWith('auth_refresh_reuse_detected_total'))
            ?.split(' ')
            .at(-1) ?? 0,
        )
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
