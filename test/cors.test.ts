import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startTestServer, type TestServer } from './helpers/server.ts'

const DASHBOARD = 'https://dashboard.bank.example'

// REST is served beside Yoga; both faces must answer browsers the same way.
describe('CORS with CORS_ORIGINS set', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ CORS_ORIGINS: `${DASHBOARD},https://ops.bank.example` })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('allows a listed origin on REST answers, errors included, and on GraphQL', async () => {
    for (const [method, path, status] of [
      ['GET', '/healthz', 200],
      ['GET', '/api/exchange/v1/symbols', 401],
      ['GET', '/api/nowhere', 404],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method, headers: { origin: DASHBOARD } })
      expect(res.status).toBe(status)
      expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD)
      expect(res.headers.get('vary')).toBe('Origin')
      expect(res.headers.get('x-request-id')).toBeTruthy()
    }
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { origin: DASHBOARD, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    })
    expect(graphql.headers.get('access-control-allow-origin')).toBe(DASHBOARD)
  })

  it('does not allow an unlisted origin', async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: { origin: 'https://evil.example' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('null')
  })

  it('answers a preflight on a REST path', async () => {
    const res = await fetch(`${server.url}/api/exchange/v1/orders`, {
      method: 'OPTIONS',
      headers: { origin: DASHBOARD, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD)
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST')
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-request-id, dpop')
  })
})

describe('CORS without CORS_ORIGINS', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('sends no CORS headers and answers OPTIONS on a REST path as a method not allowed', async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: { origin: DASHBOARD } })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const options = await fetch(`${server.url}/healthz`, { method: 'OPTIONS', headers: { origin: DASHBOARD } })
    expect(options.status).toBe(405)
    expect(options.headers.get('allow')).toBe('GET')
  })
})
