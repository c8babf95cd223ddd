import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { probeApp } from './helpers/probe-app.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('JSON nesting limit over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({}, undefined, { app: probeApp() })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers a body nested 100,000 deep with 422, not 500', async () => {
    for (const body of [nested(100_000), `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`]) {
      const res = await server.request('POST', '/probe/items', { rawBody: body, headers: { 'content-type': 'application/json' } })
      expect(res.status).toBe(422)
      expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', ctx: { error: 'Maximum nesting depth exceeded' } })
    }
    expect((await server.request('POST', '/probe/items', { body: { name: 'ok' } })).status).toBe(201)
  })
})
