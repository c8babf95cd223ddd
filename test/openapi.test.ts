import { readFileSync } from 'node:fs'

import { compileErrors, validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openApiPath, openApiText } from '../src/app/openapi.ts'
import { routes } from '../src/app/routes.ts'
import { MESSAGES } from '../src/core/auth.ts'
import { Router } from '../src/http/router.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient } from './helpers/auth.ts'
import { ContractChecker } from './helpers/contract.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')
const document = JSON.parse(committed) as Record<string, any>
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

describe('openapi.json', () => {
  it('is what the route table generates (npm run openapi)', () => {
    expect(openApiText(routes)).toBe(committed)
  })

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0')
    // validate() dereferences what it is given in place.
    const result = await validate(structuredClone(document) as never, { resolve: { external: false } })
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    expect(result.warnings).toEqual([])
  })

  it('lists exactly the routes of the router table, each method with its operation', () => {
    const fromTable = routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort()
    const fromDocument = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort()
    expect(fromDocument).toEqual(fromTable)
    for (const route of routes) expect(route.doc.summary, `${route.method} ${route.path}`).not.toBe('')
  })

  it('says what every protected route answers without a valid token: 401 with the reference messages, and 429', () => {
    const unauthorized = document.components.responses.Unauthorized
    const schema = document.components.schemas.TokenFailureMessage
    expect(schema.enum).toEqual(Object.values(MESSAGES))
    expect(unauthorized.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TokenFailure' })
    for (const route of routes.filter((r) => (r.access ?? 'token') === 'token')) {
      const operation = document.paths[openApiPath(route.path)][route.method.toLowerCase()]
      expect(operation.security, route.path).toEqual([{ bearerAuth: [] }, { dpopAuth: [], dpopProof: [] }])
      expect(operation.responses['401'], route.path).toEqual({ $ref: '#/components/responses/Unauthorized' })
      expect(operation.responses['429'], route.path).toEqual({ $ref: '#/components/responses/TooManyRequests' })
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    // DPoP (RFC 9449): the token under its own scheme, and a proof per call in the `DPoP` header.
    expect(document.components.securitySchemes.dpopAuth).toMatchObject({ type: 'http', scheme: 'DPoP' })
    expect(document.components.securitySchemes.dpopProof).toMatchObject({ type: 'apiKey', in: 'header', name: 'DPoP' })
    for (const route of routes.filter((r) => r.access === 'login')) {
      expect(document.paths[openApiPath(route.path)][route.method.toLowerCase()].security, route.path).toEqual([{}, { dpopProof: [] }])
    }
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' })
    expect(document.components.headers['Retry-After'].required).toBe(true)
  })

  it('marks the /api/auth/v1 aliases deprecated, and only them', () => {
    const deprecated = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.values(item)
        .filter((operation) => operation.deprecated)
        .map(() => path),
    )
    expect(deprecated.sort()).toEqual(['/api/auth/v1/login', '/api/auth/v1/refresh'])
  })

  it('describes timestamps by a pattern, never as date-time (which needs a zone)', () => {
    expect(document.components.schemas.Timestamp).toMatchObject({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}$' })
    expect(committed).not.toContain('"format": "date-time"')
  })

  it('takes request schemas from the schemas the operations validate with', () => {
    const listOrders = document.paths['/api/exchange/v1/orders'].get
    const names = listOrders.parameters.map((p: { name: string }) => p.name)
    expect(names).toEqual([
      'offset',
      'limit',
      'created_at_from',
      'created_at_to',
      'updated_at_from',
      'updated_at_to',
      'order_by',
      'symbol',
      'side',
      'status',
      'client_order_id',
    ])
    expect(listOrders.parameters.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 100,
    })
    expect(document.components.schemas.CreateOrderRequest).toMatchObject({ additionalProperties: false, required: ['symbol', 'side', 'type', 'quantity'] })
  })
})

// One server for the file: the document, the page and the contract check all read it the same way.
let server: TestServer
let token: string
beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  token = (await createTestClient(server)).token
})
afterAll(async () => {
  await server?.close()
})

describe('404 examples', () => {
  // The values the examples name, put in each path: the server must answer the example's message.
  const missing: Record<string, string> = {
    uid: '0e6f1a7c-2b3d-4e5f-8a9b-1c2d3e4f5a6b',
    symbol: 'NOPE-IRR',
    currency: 'XYZ',
    client_id: '0e6f1a7c-2b3d-4e5f-8a9b-1c2d3e4f5a6b',
    client_order_id: 'bank-42-0001',
    file: 'nope.js',
  }
  const bodies: Record<string, unknown> = { patch: { quantity: '5' } }

  it("every route's 404 example is the message the route answers for its own resource", async () => {
    // Every scope: a route's 404 is checked past its scope (`accounts:withdraw` is no default's).
    const admin = (await createTestClient(server, { roles: ['admin'], scopes: ['*:*'] })).token
    const checked: string[] = []
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const response = operation.responses?.['404']
        if (!response) continue
        const examples = Object.values(response.content['application/json'].examples ?? {}) as { value: { message: string } }[]
        expect(examples.length, `${method} ${path}`).toBe(1)
        const target = path.replace(/\{([a-z_]+)\}/g, (_, name: string) => missing[name]!)
        const res = await server.request(method.toUpperCase(), target, { token: admin, body: bodies[method] })
        expect([res.status, res.body], `${method} ${target}`).toEqual([404, examples[0]!.value])
        checked.push(`${method} ${path}`)
      }
    }
    expect(checked.length).toBeGreaterThan(10)
  })
})

describe('GET /openapi.json and /docs', () => {
  it('serves the committed document at both paths, without a token', async () => {
    for (const path of ['/openapi.json', '/api/openapi.json']) {
      const res = await server.request('GET', path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(res.text).toBe(committed)
    }
  })

  it('serves the reference page and its assets from the service itself', async () => {
    const page = await server.request('GET', '/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
    for (const src of page.text.match(/(?:src|href)="([^"]+)"/g)!.map((m) => m.slice(m.indexOf('"') + 1, -1))) {
      if (src.startsWith('data:')) continue
      expect(src.startsWith('/docs/assets/'), src).toBe(true)
      expect((await server.request('GET', src)).status, src).toBe(200)
    }
    const missing = await server.request('GET', '/docs/assets/..%2Fpackage.json')
    expect(missing.status).toBe(404)
  })

  it('leaves the page out with DOCS=false, and keeps the document', async () => {
    const off = await startTestServer({ DOCS: 'false' })
    try {
      expect((await off.request('GET', '/docs')).status).toBe(404)
      expect((await off.request('GET', '/docs/assets/docs.js')).status).toBe(404)
      expect((await off.request('GET', '/openapi.json')).status).toBe(200)
    } finally {
      await off.close()
    }
  })
})

describe('the contract check itself', () => {
  const served = new Router(routes)

  /** A real answer, checked against a copy of the document changed by `edit`. */
  async function problemsWith(edit: (doc: Record<string, any>) => void, method: string, path: string, options: { token?: string } = {}) {
    const res = await server.request(method, path, options)
    const copy = structuredClone(document)
    edit(copy)
    return new ContractChecker(copy).check(
      { method, pathname: new URL(path, server.url).pathname },
      { status: res.status, headers: res.headers, text: res.text },
      served,
    )
  }

  it('accepts what the document describes', async () => {
    expect(await problemsWith(() => {}, 'GET', '/api/exchange/v1/symbols?limit=2', { token })).toEqual([])
    expect(await problemsWith(() => {}, 'GET', '/api/exchange/v1/symbols', {})).toEqual([])
  })

  it('refuses a field the document does not have, a status it does not list, and a missing required header', async () => {
    expect(
      await problemsWith(
        (doc) => {
          delete doc.components.schemas.Symbol.properties.tick_size
          doc.components.schemas.Symbol.required = doc.components.schemas.Symbol.required.filter((f: string) => f !== 'tick_size')
        },
        'GET',
        '/api/exchange/v1/symbols?limit=1',
        { token },
      ),
    ).toEqual([expect.stringContaining('must NOT have additional properties (tick_size)')])
    expect(
      await problemsWith((doc) => delete doc.paths['/api/exchange/v1/symbols/{symbol}'].get.responses['404'], 'GET', '/api/exchange/v1/symbols/NOPE', {
        token,
      }),
    ).toEqual([expect.stringContaining('answered 404, which the document does not list')])
    expect(await problemsWith((doc) => (doc.components.headers['X-Request-Id'].schema = { type: 'string', pattern: '^never$' }), 'GET', '/healthz')).toEqual([
      expect.stringContaining('header X-Request-Id'),
    ])
    expect(
      await problemsWith(
        (doc) => (doc.paths['/healthz'].get.responses['200'].headers.Missing = { required: true, schema: { type: 'string' } }),
        'GET',
        '/healthz',
      ),
    ).toEqual([expect.stringContaining('header Missing is required but absent')])
  })

  it('checks unknown paths against NotFound and other methods against MethodNotAllowed', async () => {
    expect(await problemsWith(() => {}, 'GET', '/api/nope')).toEqual([])
    expect(await problemsWith(() => {}, 'PUT', '/api/exchange/v1/symbols')).toEqual([])
    expect(await problemsWith((doc) => (doc.components.schemas.MethodNotAllowedError.properties.error.const = 'x'), 'PUT', '/api/exchange/v1/symbols')).toEqual(
      [expect.stringContaining('/error must be equal to constant')],
    )
  })

  it('makes the request fail when a server answers what the document does not describe', async () => {
    // The application's route object itself, served with a body its document does not allow.
    const health = routes.find((r) => r.path === '/healthz')!
    const original = health.handler
    health.handler = () => ({ body: { status: 'ok', extra: true } })
    try {
      await expect(server.request('GET', '/healthz')).rejects.toThrow(/GET \/healthz 200: body .*extra/)
    } finally {
      health.handler = original
    }
  })
})
