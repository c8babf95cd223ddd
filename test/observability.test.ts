import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { LogSink } from './helpers/log-sink.ts'
import { probeApp } from './helpers/probe-app.ts'
import { sendRaw } from './helpers/raw-http.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let sink: LogSink
let client: TestClient
beforeAll(async () => {
  sink = new LogSink()
  server = await startTestServer({ LOG_LEVEL: 'info' }, undefined, { app: probeApp(), logDestination: sink })
  client = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

describe('request log', () => {
  it('writes one line per request: id, method, route pattern, status, latency, address, client', async () => {
    const uid = randomUUID()
    const res = await server.request('GET', `/probe/items/${uid}?limit=5`, { token: client.token, headers: { 'x-request-id': 'bank-trace-7' } })
    expect(res.status).toBe(200)
    await server.request('GET', '/no/such/thing-with-an-id-4f1c')
    await server.graphql('query Named { clients }')
    const lines = sink.requests()
    const item = lines.find((l) => l.requestId === 'bank-trace-7')
    expect(item).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'exchange-api',
      requestId: 'bank-trace-7',
      method: 'GET',
      route: '/probe/items/:uid',
      status: 200,
      ms: expect.any(Number),
      ip: '127.0.0.1',
      msg: 'request',
    })
    expect(lines.find((l) => l.route === 'unmatched')).toMatchObject({ method: 'GET', status: 404 })
    expect(lines.find((l) => l.route === '/graphql')).toMatchObject({ method: 'POST', status: 200, operation: 'Named' })
    expect(sink.text).not.toContain(uid)
    expect(sink.text).not.toContain('thing-with-an-id')
  })

  it('logs requests Yoga answers itself (the GraphiQL page) with their address', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html', 'x-request-id': 'graphiql-page' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('x-request-id')).toBe('graphiql-page')
    // Read to its end: a response left unread holds its connection, and the server's close waits
    // for it (src/http/listen.ts).
    expect(await page.text()).toContain('GraphiQL')
    expect(sink.requests().find((l) => l.requestId === 'graphiql-page')).toMatchObject({ route: '/graphql', method: 'GET', status: 200, ip: '127.0.0.1' })
  })

  it('logs an unexpected failure with its cause and request id, and renders neither', async () => {
    const rest = await server.request('GET', '/probe/explode', { headers: { 'x-request-id': 'explode-rest' } })
    const gql = await server.graphql('{ explode }', undefined, { headers: { 'x-request-id': 'explode-gql' } })
    expect(rest.status).toBe(500)
    expect(rest.body).toEqual({ message: 'Internal server error', error: 'internal_error', detail: 'Internal server error' })
    expect(gql.status).toBe(500)
    expect(gql.errors?.[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } })
    expect(JSON.stringify([rest.body, gql.errors])).not.toContain('SELECT')
    for (const id of ['explode-rest', 'explode-gql']) {
      const failed = sink.lines().find((l) => l.requestId === id && l.msg === 'request failed')
      expect(failed).toMatchObject({ level: 50, kind: 'internal', err: { message: 'secret internals: SELECT client_secret FROM clients' } })
      expect(sink.requests().find((l) => l.requestId === id)).toMatchObject({ status: 500, level: 50 })
    }
  })

  it('answers a fault outside every handler 500 with the request id, and logs it with that id', async () => {
    const res = await server.request('GET', '/probe/bad-header', { headers: { 'x-request-id': 'outside-handler' } })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ message: 'Internal server error', error: 'internal_error', detail: 'Internal server error' })
    expect(res.headers.get('x-request-id')).toBe('outside-handler')
    expect(sink.lines().find((l) => l.requestId === 'outside-handler' && l.msg === 'request failed outside its handler')).toMatchObject({ level: 50 })
    const anonymous = await server.request('GET', '/probe/bad-header')
    expect(anonymous.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('names the authenticated client as sub', async () => {
    const res = await server.request('GET', '/probe/authenticated', { token: client.token })
    const line = sink.requests().find((l) => l.requestId === res.headers.get('x-request-id'))
    expect(line).toMatchObject({ route: '/probe/authenticated', status: 200, sub: client.clientId })
  })

  it('never writes credentials: Authorization headers, tokens, secrets, refresh tokens', async () => {
    const secret = `secret-${randomUUID()}`
    const refreshToken = `refresh-${randomUUID()}`
    const forged = `${client.token.slice(0, -4)}AAAA`
    await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: client.clientId, client_secret: secret } })
    await server.request('POST', '/api/auth/v1/refresh', { body: { refresh_token: refreshToken }, headers: { authorization: `Bearer ${forged}` } })
    await server.request('GET', '/probe/authenticated', { token: client.token })
    await server.request('GET', '/probe/authenticated', { headers: { authorization: `Bearer ${forged}` } })
    await server.request('GET', '/probe/authenticated', { headers: { authorization: `Basic ${Buffer.from(`u:${secret}`).toString('base64')}` } })
    await server.graphql(`mutation { login(clientId: "${client.clientId}", clientSecret: "${secret}") }`)
    await server.graphql('mutation R($t: String!) { refresh(refreshToken: $t) }', { t: refreshToken }, { token: client.token })
    await server.request('GET', `/probe/items/${refreshToken}?client_secret=${secret}`)
    expect(sink.requests().length).toBeGreaterThanOrEqual(8)
    for (const needle of [secret, refreshToken, client.token, forged, client.token.split('.')[2]!, 'Bearer', 'Basic ']) {
      expect(sink.text).not.toContain(needle)
    }
  })
})

describe('a caller that goes away mid-body', () => {
  it('is logged as its own 400, not as a 5xx or a database outage', async () => {
    const port = Number(new URL(server.url).port)
    for (const path of ['/graphql', '/api/sso/v1/auth/login']) {
      const id = `cut-${randomUUID()}`
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"query":`
      await sendRaw(port, Buffer.from(head), { end: true, timeoutMs: 5000 })
      await expect.poll(() => sink.requests().find((l) => l.requestId === id)).toMatchObject({ route: path, status: 400 })
      expect(sink.lines().filter((l) => l.requestId === id && l.level >= 50)).toEqual([])
    }
  })
})

/** Parses the exposition text into `name{labels}` → value, checking every line's syntax. */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>()
  const described = new Set<string>()
  expect(text.endsWith('\n')).toBe(true)
  for (const line of text.trimEnd().split('\n')) {
    const meta = /^# (HELP|TYPE) ([a-z_]+) (.+)$/.exec(line)
    if (meta) {
      described.add(meta[2]!)
      if (meta[1] === 'TYPE') expect(['counter', 'gauge', 'histogram']).toContain(meta[3])
      continue
    }
    const sample = /^([a-z_]+)(\{(?:[a-z_]+="(?:[^"\\]|\\.)*",?)*\})? (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|\+Inf)$/.exec(line)
    expect(sample, line).not.toBeNull()
    expect(described.has(sample![1]!.replace(/_(bucket|sum|count)$/, '')) || described.has(sample![1]!), line).toBe(true)
    values.set(`${sample![1]}${sample![2] ?? ''}`, Number(sample![3]))
  }
  return values
}

describe('metrics', () => {
  it('exposes HTTP, login, refresh-reuse, rate-limit and pool metrics in the Prometheus text format', async () => {
    await server.request('GET', '/probe/items/abc')
    await server.request('GET', '/probe/items/def')
    // Real logins (test clients) may already have counted; compare with what was there.
    const before = parseMetrics(await (await fetch(`${server.url}/metrics`)).text())
    const counted = (name: string) => before.get(name) ?? 0
    server.services.metrics.loginSucceeded()
    server.services.metrics.loginFailed()
    server.services.metrics.loginFailed()
    server.services.metrics.refreshReuseDetected()
    const res = await fetch(`${server.url}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const metrics = parseMetrics(await res.text())
    expect(metrics.get('http_requests_total{route="/probe/items/:uid",method="GET",status="200"}')).toBeGreaterThanOrEqual(2)
    expect(metrics.get('http_request_duration_seconds_count{route="/probe/items/:uid",method="GET"}')).toBeGreaterThanOrEqual(2)
    expect(metrics.get('http_request_duration_seconds_bucket{route="/probe/items/:uid",method="GET",le="+Inf"}')).toBeGreaterThanOrEqual(2)
    expect(metrics.get('auth_logins_total{result="ok"}')).toBe(counted('auth_logins_total{result="ok"}') + 1)
    expect(metrics.get('auth_logins_total{result="failed"}')).toBe(counted('auth_logins_total{result="failed"}') + 2)
    expect(metrics.get('auth_refresh_reuse_detected_total')).toBe(counted('auth_refresh_reuse_detected_total') + 1)
    expect(metrics.get('rate_limit_rejections_total{limit="api"}')).toBe(0)
    expect(metrics.get('rate_limit_rejections_total{limit="login_ip"}')).toBe(0)
    expect(metrics.get('rate_limit_rejections_total{limit="login_client_ip"}')).toBe(0)
    expect(metrics.get('rate_limit_rejections_total{limit="anon"}')).toBe(0)
    const pool = ['total', 'idle', 'waiting'].map((state) => metrics.get(`db_pool_connections{state="${state}"}`))
    if (onPostgres) {
      expect(pool[0]).toBeGreaterThanOrEqual(1)
      expect(pool[0]).toBeLessThanOrEqual(server.config.dbPoolSize)
      expect(pool[2]).toBe(0)
    } else {
      expect(pool).toEqual([1, 0, 0])
    }
    // Unknown paths share one series, whatever they are.
    await server.request('GET', `/random/${randomUUID()}`)
    await server.request('GET', `/random/${randomUUID()}`)
    const after = await (await fetch(`${server.url}/metrics`)).text()
    expect(after).not.toContain('/random/')
    expect(parseMetrics(after).get('http_requests_total{route="unmatched",method="GET",status="404"}')).toBeGreaterThanOrEqual(2)
  })

  it('counts rate-limit refusals by limit', async () => {
    const limited = await startTestServer({ RATE_LIMIT_API_PER_MIN: '1', RATE_LIMIT_LOGIN_PER_MIN: '1' }, undefined, { app: probeApp() })
    try {
      const c = await createTestClient(limited)
      await limited.request('GET', '/probe/authenticated', { token: c.token })
      expect((await limited.request('GET', '/probe/authenticated', { token: c.token })).status).toBe(429)
      await limited.request('POST', '/api/sso/v1/auth/login', { body: { client_secret: 'right' } })
      expect((await limited.request('POST', '/api/sso/v1/auth/login', { body: { client_secret: 'right' } })).status).toBe(429)
      const metrics = parseMetrics(await (await fetch(`${limited.url}/metrics`)).text())
      expect(metrics.get('rate_limit_rejections_total{limit="api"}')).toBe(1)
      expect(metrics.get('rate_limit_rejections_total{limit="login_ip"}')).toBe(1)
      expect(metrics.get('http_requests_total{route="/api/sso/v1/auth/login",method="POST",status="429"}')).toBe(1)
    } finally {
      await limited.close()
    }
  })

  it('requires METRICS_TOKEN when it is set', async () => {
    const token = `metrics-${randomUUID()}`
    const guarded = await startTestServer({ METRICS_TOKEN: token })
    try {
      const missing = await guarded.request('GET', '/metrics')
      expect(missing.status).toBe(401)
      expect(missing.body).toEqual({ message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' })
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      const wrong = await guarded.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}x` } })
      expect(wrong.status).toBe(401)
      expect(wrong.body).toEqual({ message: 'Invalid metrics token', error: 'Unauthorized', detail: 'Invalid metrics token' })
      const right = await guarded.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } })
      expect(right.status).toBe(200)
      expect(right.text).toContain('# TYPE http_requests_total counter')
      const post = await guarded.request('POST', '/metrics', { headers: { authorization: `Bearer ${token}` } })
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET')
    } finally {
      await guarded.close()
    }
  })

  it('rejects a short METRICS_TOKEN at start', async () => {
    const { loadConfig } = await import('../src/core/config.ts')
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('Invalid configuration: METRICS_TOKEN must be 16 to 256 visible ASCII characters')
  })
})
