import { randomUUID } from 'node:crypto'

import { Redis } from 'ioredis'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { loadConfig } from '../src/core/config.ts'
import { AppError } from '../src/core/errors.ts'
import { clientIp, normaliseIp } from '../src/http/client-ip.ts'
import { counterValue, Metrics } from '../src/observability/metrics.ts'
import { ipRateLimitKey } from '../src/rate-limits/address-keys.ts'
import { RateLimits } from '../src/rate-limits/rate-limits.ts'
import { createTestClient } from './helpers/auth.ts'
import { probeApp } from './helpers/probe-app.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'
import { startTcpProxy } from './helpers/tcp-proxy.ts'

const redisTestUrl = process.env.REDIS_TEST_URL || undefined
const silent = pino({ level: 'silent' })
const pool = () => ({ total: 1, idle: 0, waiting: 0 })
const TOO_MANY = { message: 'Too many requests', error: 'rate_limited', detail: 'Too many requests' }

const opened: RateLimits[] = []
async function readyLimits(options: Parameters<typeof limits>[0] = {}) {
  const made = limits(options)
  if (options.redisUrl) expect(await made.rateLimits.ready(5000)).toBe(true)
  return made
}
function limits(options: { login?: number; api?: number; anon?: number; redisUrl?: string; keyPrefix?: string } = {}) {
  const metrics = new Metrics(pool)
  const rateLimits = new RateLimits(
    { redisUrl: options.redisUrl, rateLimitLoginPerMin: options.login ?? 3, rateLimitApiPerMin: options.api ?? 5, rateLimitAnonPerMin: options.anon ?? 600 },
    silent,
    metrics,
    { keyPrefix: options.keyPrefix ?? `test:${randomUUID()}` },
  )
  opened.push(rateLimits)
  return { rateLimits, metrics }
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()))
})

/** The refusal a check ends in, whether it throws at once (counting in memory) or rejects. */
async function refusal(check: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof check === 'function' ? check() : check)
  } catch (error) {
    return error as AppError
  }
  throw new Error('expected a rate_limited refusal')
}

/** The same behaviour whether counters live in memory or in Redis. */
function limiterBehaviour(redisUrl: string | undefined) {
  it('counts login attempts per IP and per (client id, IP), each on its own', async () => {
    const { rateLimits, metrics } = await readyLimits({ login: 3, redisUrl })
    const bankA = (ip: string) => ({ id: 'bank-a', ip })
    expect(await rateLimits.checkLogin({ ip: '10.0.0.1', client: bankA('10.0.0.1') })).toMatchObject({ limit: 3, remaining: 2 })
    await rateLimits.checkLogin({ ip: '10.0.0.1', client: { id: 'bank-b', ip: '10.0.0.1' } })
    expect(await rateLimits.checkLogin({ ip: '10.0.0.2', client: bankA('10.0.0.2') })).toMatchObject({ limit: 3, remaining: 2 })
    // 10.0.0.1 has used its 3rd attempt.
    expect(await rateLimits.checkLogin({ ip: '10.0.0.1' })).toMatchObject({ remaining: 0 })
    const byIp = await refusal(rateLimits.checkLogin({ ip: '10.0.0.1', client: { id: 'bank-c', ip: '10.0.0.1' } }))
    expect(byIp).toBeInstanceOf(AppError)
    expect(byIp.kind).toBe('rate_limited')
    expect(byIp.status).toBe(429)
    // bank-a from 10.0.0.2 uses up its own allowance there, and only there.
    expect(await rateLimits.checkLogin({ client: bankA('10.0.0.2') })).toMatchObject({ remaining: 1 })
    expect(await rateLimits.checkLogin({ client: bankA('10.0.0.2') })).toMatchObject({ remaining: 0 })
    expect((await refusal(rateLimits.checkLogin({ client: bankA('10.0.0.2') }))).kind).toBe('rate_limited')
    expect(await rateLimits.checkLogin({ client: bankA('10.0.0.9') })).toMatchObject({ remaining: 2 })
    expect(await counterValue(metrics.rateLimitRejections, { limit: 'login_ip' })).toBe(1)
    expect(await counterValue(metrics.rateLimitRejections, { limit: 'login_client_ip' })).toBe(1)
  })

  it('makes a failed attempt count double', async () => {
    const { rateLimits } = await readyLimits({ login: 4, redisUrl })
    const client = { id: 'bank-f', ip: '10.1.0.1' }
    await rateLimits.checkLogin({ ip: '10.1.0.1', client })
    await rateLimits.penaliseLogin({ ip: '10.1.0.1', client })
    await rateLimits.checkLogin({ ip: '10.1.0.1', client })
    await rateLimits.penaliseLogin({ ip: '10.1.0.1', client })
    // Two failed attempts used all four points of both keys.
    expect((await refusal(rateLimits.checkLogin({ ip: '10.1.0.1' }))).kind).toBe('rate_limited')
    expect((await refusal(rateLimits.checkLogin({ client }))).kind).toBe('rate_limited')
  })

  it('peeks at a login allowance without counting', async () => {
    const { rateLimits } = await readyLimits({ login: 2, redisUrl })
    const client = { id: 'bank-p', ip: '10.2.0.1' }
    for (let i = 0; i < 5; i++) await rateLimits.peekLogin({ client })
    await rateLimits.penaliseLogin({ client })
    await rateLimits.peekLogin({ client })
    await rateLimits.penaliseLogin({ client })
    const refused = await refusal(rateLimits.peekLogin({ client }))
    expect(refused.kind).toBe('rate_limited')
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' })
  })

  it('counts several API calls at once, and refuses them whole without counting them', async () => {
    const { rateLimits } = await readyLimits({ api: 5, redisUrl })
    expect(await rateLimits.consumeApi('client-m', 3)).toMatchObject({ remaining: 2 })
    expect((await refusal(() => rateLimits.consumeApi('client-m', 3))).kind).toBe('rate_limited')
    // The refused three were given back: two calls are still left.
    expect(await rateLimits.consumeApi('client-m', 2)).toMatchObject({ remaining: 0 })
    expect((await refusal(() => rateLimits.consumeApi('client-m'))).kind).toBe('rate_limited')
  })

  it('limits calls without a valid token per address', async () => {
    const { rateLimits, metrics } = await readyLimits({ anon: 2, redisUrl })
    expect(await rateLimits.consumeAnon('10.3.0.1')).toMatchObject({ limit: 2, remaining: 1 })
    await rateLimits.consumeAnon('10.3.0.1')
    expect((await refusal(() => rateLimits.consumeAnon('10.3.0.1'))).kind).toBe('rate_limited')
    expect(await rateLimits.consumeAnon('10.3.0.2')).toMatchObject({ remaining: 1 })
    expect(await counterValue(metrics.rateLimitRejections, { limit: 'anon' })).toBe(1)
  })

  it('refuses with Retry-After and the RateLimit-* headers', async () => {
    const { rateLimits } = await readyLimits({ api: 2, redisUrl })
    expect(await rateLimits.consumeApi('client-1')).toEqual({ limit: 2, remaining: 1, resetSeconds: 60 })
    await rateLimits.consumeApi('client-1')
    const error = await refusal(() => rateLimits.consumeApi('client-1'))
    expect(error.message).toBe('Too many requests')
    expect(error.headers).toEqual({ 'retry-after': '60', 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '60' })
    expect(await rateLimits.consumeApi('client-2')).toMatchObject({ remaining: 1 })
  })

  it('keeps keys short whatever a body carries as client id', async () => {
    const { rateLimits } = await readyLimits({ login: 1, redisUrl })
    const huge = 'x'.repeat(100_000)
    await rateLimits.checkLogin({ client: { id: huge, ip: '10.4.0.1' } })
    expect((await refusal(rateLimits.checkLogin({ client: { id: huge, ip: '10.4.0.1' } }))).kind).toBe('rate_limited')
    await rateLimits.checkLogin({ client: { id: `${huge}y`, ip: '10.4.0.1' } })
  })
}

describe('rate limits in memory', () => {
  limiterBehaviour(undefined)

  it('counts the IPv6 addresses of one /64 as one caller', async () => {
    const { rateLimits } = limits({ login: 2 })
    await rateLimits.checkLogin({ ip: '2001:db8:1:2::1' })
    await rateLimits.checkLogin({ ip: '2001:db8:1:2:ffff::9' })
    expect((await refusal(rateLimits.checkLogin({ ip: '2001:db8:1:2:abcd:1:2:3' }))).kind).toBe('rate_limited')
    await rateLimits.checkLogin({ ip: '2001:db8:1:3::1' })
  })
})

describe.skipIf(!redisTestUrl)('rate limits in Redis', () => {
  limiterBehaviour(redisTestUrl)

  it('shares one counter between two processes on one Redis', async () => {
    const keyPrefix = `test:${randomUUID()}`
    const a = (await readyLimits({ api: 4, login: 2, redisUrl: redisTestUrl, keyPrefix })).rateLimits
    const b = (await readyLimits({ api: 4, login: 2, redisUrl: redisTestUrl, keyPrefix })).rateLimits
    expect(a.backend).toBe('redis')
    await a.consumeApi('shared-client')
    await b.consumeApi('shared-client')
    await a.consumeApi('shared-client')
    expect(await b.consumeApi('shared-client')).toMatchObject({ remaining: 0 })
    expect((await refusal(() => a.consumeApi('shared-client'))).kind).toBe('rate_limited')
    await a.checkLogin({ ip: '192.0.2.7' })
    await b.penaliseLogin({ ip: '192.0.2.7' })
    expect((await refusal(b.checkLogin({ ip: '192.0.2.7' }))).kind).toBe('rate_limited')
    // The counters are Redis keys that expire with the window.
    const redis = new Redis(redisTestUrl!)
    try {
      // The refused fifth call was given back.
      expect(await redis.get(`${keyPrefix}:api:shared-client`)).toBe('4')
      expect(await redis.pttl(`${keyPrefix}:api:shared-client`)).toBeGreaterThan(50_000)
      expect(await redis.get(`${keyPrefix}:login_ip:192.0.2.7`)).toBe('3')
    } finally {
      await redis.quit()
    }
  })

  it('falls back to per-process counters while Redis is unreachable or hangs, and returns to Redis by itself', async () => {
    const proxy = await startTcpProxy('127.0.0.1', Number(new URL(redisTestUrl!).port || 6379))
    const keyPrefix = `test:${randomUUID()}`
    const { rateLimits } = await readyLimits({ api: 100, keyPrefix, redisUrl: `redis://127.0.0.1:${proxy.port}` })
    const redis = new Redis(redisTestUrl!)
    const inRedis = async () => Number(await redis.get(`${keyPrefix}:api:c`))
    try {
      await rateLimits.consumeApi('c')
      expect(await inRedis()).toBe(1)

      await proxy.refuse()
      for (let i = 0; i < 3; i++) expect(await rateLimits.consumeApi('c')).toMatchObject({ limit: 100 })
      expect(await inRedis()).toBe(1)

      await proxy.restore()
      expect(await rateLimits.ready(5000)).toBe(true)
      await rateLimits.consumeApi('c')
      expect(await inRedis()).toBe(2)

      // A network that swallows packets: each call gives up on Redis after its command timeout.
      proxy.blackhole()
      const started = Date.now()
      expect(await rateLimits.consumeApi('c')).toMatchObject({ limit: 100 })
      expect(Date.now() - started).toBeLessThan(3000)
      // ...and the calls after it do not wait for Redis again at once.
      const next = Date.now()
      await rateLimits.consumeApi('c')
      expect(Date.now() - next).toBeLessThan(200)
    } finally {
      await redis.quit()
      await rateLimits.close()
      await proxy.close()
    }
  })
})

describe.skipIf(!redisTestUrl)('the API while Redis is down', () => {
  it('keeps answering authenticated calls', async () => {
    const proxy = await startTcpProxy('127.0.0.1', Number(new URL(redisTestUrl!).port || 6379))
    const server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_API_PER_MIN: '1200' }, undefined, { app: probeApp() })
    try {
      const client = await createTestClient(server)
      expect((await server.request('GET', '/probe/authenticated', { token: client.token })).headers.get('ratelimit-remaining')).toBe('1199')
      await proxy.refuse()
      const during = await server.request('GET', '/probe/authenticated', { token: client.token })
      expect(during.status).toBe(200)
      expect(during.body).toEqual({ sub: client.clientId })
      expect(during.headers.get('ratelimit-limit')).toBe('1200')
    } finally {
      await server.close()
      await proxy.close()
    }
  })
})

describe('rate limits when Redis is down', () => {
  it('keeps serving from per-process counters instead of failing', async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    const { rateLimits } = limits({ api: 2, redisUrl: 'redis://127.0.0.1:1' })
    expect(rateLimits.backend).toBe('redis')
    expect(await rateLimits.consumeApi('client-x')).toMatchObject({ limit: 2, remaining: 1 })
    await rateLimits.consumeApi('client-x')
    expect((await refusal(() => rateLimits.consumeApi('client-x'))).kind).toBe('rate_limited')
    await rateLimits.penaliseLogin({ ip: '10.9.9.9' })
  })
})

describe('client address', () => {
  it('is the socket peer unless proxies are trusted', () => {
    expect(clientIp('::ffff:10.0.0.5', '1.2.3.4', 0)).toBe('10.0.0.5')
    expect(clientIp('10.0.0.5', '1.2.3.4, 198.51.100.7', 1)).toBe('198.51.100.7')
    expect(clientIp('10.0.0.5', '1.2.3.4, 198.51.100.7, 10.0.0.4', 2)).toBe('198.51.100.7')
    // Fewer entries than trusted hops: the leftmost.
    expect(clientIp('10.0.0.5', '198.51.100.7', 3)).toBe('198.51.100.7')
    // Garbage in the header: the peer.
    expect(clientIp('10.0.0.5', 'not-an-ip', 1)).toBe('10.0.0.5')
    expect(clientIp(undefined, null, 0)).toBe('unknown')
  })

  it('normalises addresses and keys IPv6 by /64', () => {
    expect(normaliseIp('[2001:DB8::1]:443')).toBe('2001:db8::1')
    expect(normaliseIp('203.0.113.9:8080')).toBe('203.0.113.9')
    expect(normaliseIp('999.1.1.1')).toBeUndefined()
    expect(ipRateLimitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(ipRateLimitKey('2001:db8:0:42::1')).toBe('2001:db8:0:42::/64')
    expect(ipRateLimitKey('::1')).toBe('0:0:0:0::/64')
    expect(ipRateLimitKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })

  it('reads TRUST_PROXY as false, true or a number of hops', () => {
    expect(loadConfig({}).trustProxyHops).toBe(0)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxyHops).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxyHops).toBe(2)
    expect(() => loadConfig({ TRUST_PROXY: 'sometimes' })).toThrow('Invalid configuration: TRUST_PROXY must be true, false or a number of proxy hops (0 to 10)')
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow('Invalid configuration: TRUST_PROXY must be true, false or a number of proxy hops (0 to 10)')
  })
})

describe('rate limits over HTTP', () => {
  let server: TestServer
  let app: ReturnType<typeof probeApp>
  beforeAll(async () => {
    app = probeApp()
    server = await startTestServer({ RATE_LIMIT_API_PER_MIN: '3', RATE_LIMIT_LOGIN_PER_MIN: '4' }, undefined, { app })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('limits each client on REST, with RateLimit-* headers on allowed calls, and does nothing over the limit', async () => {
    const client = await createTestClient(server)
    const other = await createTestClient(server)
    const before = app.calls.authenticated
    for (let i = 2; i >= 0; i--) {
      const ok = await server.request('GET', '/probe/authenticated', { token: client.token })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('ratelimit-limit')).toBe('3')
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(i))
      expect(Number(ok.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1)
    }
    const refused = await server.request('GET', '/probe/authenticated', { token: client.token })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(TOO_MANY)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number.isInteger(Number(refused.headers.get('retry-after')))).toBe(true)
    expect(refused.headers.get('ratelimit-limit')).toBe('3')
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('ratelimit-reset')).toBe(refused.headers.get('retry-after'))
    expect(app.calls.authenticated - before).toBe(3)
    // Another client has its own allowance.
    expect((await server.request('GET', '/probe/authenticated', { token: other.token })).status).toBe(200)
    // Unauthenticated calls are not counted against anyone.
    expect((await server.request('GET', '/probe/authenticated')).status).toBe(401)
  })

  it('shares one allowance between REST and GraphQL, counting a request once however many fields it resolves', async () => {
    const client = await createTestClient(server)
    const first = await server.graphql('{ a: me b: me c: me }', undefined, { token: client.token })
    expect(first.status).toBe(200)
    expect(first.data).toEqual({ a: client.clientId, b: client.clientId, c: client.clientId })
    expect(first.headers.get('ratelimit-remaining')).toBe('2')
    expect((await server.request('GET', '/probe/authenticated', { token: client.token })).status).toBe(200)
    expect((await server.graphql('mutation { touch }', undefined, { token: client.token })).status).toBe(200)
    const touched = app.calls.touch
    const refused = await server.graphql('mutation { touch }', undefined, { token: client.token })
    expect(refused.status).toBe(429)
    expect(refused.data).toBeUndefined()
    expect(refused.errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', error: 'rate_limited' } }])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(app.calls.touch).toBe(touched)
  })

  it('limits login and refresh per IP on every REST path, a failure counting double, before any work', async () => {
    const paths = ['/api/sso/v1/auth/login', '/api/auth/v1/login', '/api/sso/v1/auth/refresh', '/api/auth/v1/refresh']
    // Limit 4 per IP; each test gets its own address through a trusted proxy.
    const proxied = await startTestServer({ RATE_LIMIT_LOGIN_PER_MIN: '4', TRUST_PROXY: 'true' }, undefined, { app })
    try {
      const as = (ip: string) => ({ 'x-forwarded-for': ip })
      const ok = await proxied.request('POST', paths[0]!, { body: { client_id: 'a', client_secret: 'right' }, headers: as('198.51.100.1') })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('ratelimit-limit')).toBe('4')
      expect(ok.headers.get('ratelimit-remaining')).toBe('3')
      expect((await proxied.request('POST', paths[1]!, { body: { refresh_token: 'right' }, headers: as('198.51.100.1') })).status).toBe(200)
      // A failure: one point for the attempt, one for failing.
      expect((await proxied.request('POST', paths[2]!, { body: { refresh_token: 'stolen' }, headers: as('198.51.100.1') })).status).toBe(401)
      const before = app.calls.login
      const refused = await proxied.request('POST', paths[3]!, { body: { refresh_token: 'right' }, headers: as('198.51.100.1') })
      expect(refused.status).toBe(429)
      expect(refused.body).toEqual(TOO_MANY)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(app.calls.login).toBe(before)
      // Another address is not affected; the spoofable left part of the header is ignored.
      expect((await proxied.request('POST', paths[0]!, { body: { client_secret: 'right' }, headers: as('198.51.100.2') })).status).toBe(200)
      expect((await proxied.request('POST', paths[0]!, { body: { client_secret: 'right' }, headers: as('203.0.113.5, 198.51.100.1') })).status).toBe(429)
    } finally {
      await proxied.close()
    }
  })

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN_PER_MIN: '2' }, undefined, { app })
    try {
      for (const ip of ['198.51.100.10', '198.51.100.11']) {
        expect((await limited.request('POST', '/api/sso/v1/auth/login', { body: { client_secret: 'right' }, headers: { 'x-forwarded-for': ip } })).status).toBe(
          200,
        )
      }
      const spoofed = await limited.request('POST', '/api/sso/v1/auth/login', {
        body: { client_secret: 'right' },
        headers: { 'x-forwarded-for': '198.51.100.12' },
      })
      expect(spoofed.status).toBe(429)
    } finally {
      await limited.close()
    }
  })

  it('limits GraphQL login and refresh per IP, one attempt per selected field', async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN_PER_MIN: '4' }, undefined, { app })
    try {
      const ok = await limited.graphql('mutation { a: login(clientId: "x", clientSecret: "right") b: refresh(refreshToken: "right") }')
      expect(ok.status).toBe(200)
      expect(ok.data).toEqual({ a: 'ok', b: 'ok' })
      expect(ok.headers.get('ratelimit-remaining')).toBe('2')
      const failed = await limited.graphql('mutation { login(clientId: "x", clientSecret: "wrong") }')
      expect(failed.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED')
      // 2 + 1 attempt + 1 for the failure: the allowance is spent.
      expect((await limited.graphql('mutation { refresh(refreshToken: "right") }')).status).toBe(429)
      const before = app.calls.login
      const refused = await limited.graphql('mutation Again { ...F } fragment F on Mutation { login(clientId: "x", clientSecret: "right") }')
      expect(refused.status).toBe(429)
      expect(refused.data).toBeUndefined()
      expect(refused.errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', error: 'rate_limited' } }])
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(app.calls.login).toBe(before)
      // Queries are not login attempts.
      expect((await limited.graphql('{ clients }')).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
