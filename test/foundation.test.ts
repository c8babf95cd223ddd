import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { HealthDocument } from './generated/graphql.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('HTTP infrastructure', () => {
  it('answers /healthz and /readyz as JSON', async () => {
    const health = await server.request('GET', '/healthz')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok' })
    const ready = await server.request('GET', '/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ok', database: 'ok' })
    expect(ready.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('answers an unknown path with a 404 JSON body', async () => {
    const res = await server.request('GET', '/api/nowhere/v1/things')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      message: 'No route for /api/nowhere/v1/things',
      error: 'not_found',
      detail: 'No route for /api/nowhere/v1/things',
    })
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await server.request('DELETE', '/healthz')
    expect(res.status).toBe(405)
    expect(res.body).toEqual({ message: 'Method DELETE is not allowed here', error: 'method_not_allowed', detail: 'Method DELETE is not allowed here' })
    expect(res.headers.get('allow')).toBe('GET')
  })

  it('puts X-Request-Id on every response, keeping a sane incoming one', async () => {
    const generated = await server.request('GET', '/healthz')
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const kept = await server.request('GET', '/nope', { headers: { 'x-request-id': 'bank-trace-42' } })
    expect(kept.headers.get('x-request-id')).toBe('bank-trace-42')
    const replaced = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } })
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces')
    const gql = await server.graphql(HealthDocument)
    expect(gql.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('GraphQL', () => {
  it('serves the schema with a typed document', async () => {
    const res = await server.graphql(HealthDocument)
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ health: { status: 'ok', database: 'ok' } })
  })

  it('serves GraphiQL from bundled assets, not a CDN', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('GraphiQL')
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/)
  })
})
