import { createHash } from 'node:crypto'
import { get, type IncomingHttpHeaders } from 'node:http'
import { gunzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { HealthDocument } from './generated/graphql.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer

/** A GET whose body is read as sent (fetch would undo a content encoding). */
const rawGet = (url: string, headers: Record<string, string>) =>
  new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
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

  it("serves GraphiQL's page small, its editor from assets named by content, cached for good and gzipped", async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } })
    const html = await res.text()
    // The page once inlined all ~9 MB of the editor, for every visit and every stranger's request.
    expect(Buffer.byteLength(html)).toBeLessThan(64 * 1024)
    const assets = [...html.matchAll(/(?:href|src)="(\/graphiql\/assets\/graphiql-[0-9a-f]{16}\.(?:css|js|ico))"/g)].map((m) => m[1]!)
    expect(assets.map((a) => a.split('.').pop())).toEqual(['ico', 'css', 'js'])
    const types: Record<string, string> = { ico: 'image/x-icon', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' }
    for (const asset of assets) {
      const plain = await fetch(`${server.url}${asset}`, { headers: { 'accept-encoding': 'identity' } })
      expect(plain.status).toBe(200)
      expect(plain.headers.get('content-type')).toBe(types[asset.split('.').pop()!])
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(plain.headers.get('content-encoding')).toBeNull()
      const bytes = Buffer.from(await plain.arrayBuffer())
      // Named by what it holds.
      expect(asset).toContain(createHash('sha256').update(bytes).digest('hex').slice(0, 16))
      const zipped = await rawGet(`${server.url}${asset}`, { 'accept-encoding': 'br, gzip' })
      expect(zipped.headers['content-encoding']).toBe('gzip')
      expect(zipped.headers.vary).toBe('accept-encoding')
      expect(gunzipSync(zipped.body).equals(bytes)).toBe(true)
      expect(zipped.body.length).toBeLessThan(bytes.length)
    }
    const unknown = await fetch(`${server.url}/graphiql/assets/graphiql-0000000000000000.js`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({
      message: 'No asset graphiql-0000000000000000.js',
      error: 'not_found',
      detail: 'No asset graphiql-0000000000000000.js',
    })
  })
})
