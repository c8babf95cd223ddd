import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { RequestContext } from '../src/core/context.ts'
import { type AppError, toAppError } from '../src/core/errors.ts'
import { openRequestState } from '../src/http/request-state.ts'
import { restHandler } from '../src/http/rest-handler.ts'
import { Router } from '../src/http/router.ts'

// The adapter on its own, with routes that misbehave on purpose.
const errors: AppError[] = []
let server: Server
let url: string

beforeAll(async () => {
  const router = new Router([
    { method: 'POST', path: '/echo', access: 'public', handler: async ({ body }) => ({ status: 201, body: { received: await body() } }) },
    { method: 'GET', path: '/items/:id', access: 'public', handler: ({ params, query }) => ({ body: { params, query } }) },
    {
      method: 'GET',
      path: '/explode',
      access: 'public',
      handler: () => {
        throw new Error('secret internals: SELECT * FROM clients')
      },
    },
    {
      method: 'GET',
      path: '/db-down',
      access: 'public',
      handler: () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
      },
    },
  ])
  const handle = restHandler(router, {
    context: () => ({ state: openRequestState(undefined, undefined, undefined, 0) }) as unknown as RequestContext,
    onError: (e) => errors.push(e),
    onResponse: () => {},
  })
  server = createServer((req, res) => void handle(req, res, new URL(`http://localhost${req.url}`)))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const post = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${url}/echo`, { method: 'POST', headers, body })

describe('REST adapter', () => {
  it('parses JSON bodies', async () => {
    const res = await post('{"a":[1,"x"]}')
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ received: { a: [1, 'x'] } })
  })

  it('answers malformed JSON with the reference 422 json_invalid shape', async () => {
    const res = await post('{"client_id": "x",}')
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      detail: [
        { type: 'json_invalid', loc: ['body', 18], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting property name enclosed in double quotes' } },
      ],
    })
  })

  it('answers invalid UTF-8 as json_invalid, not 500', async () => {
    const res = await post(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 6], ctx: { error: 'Invalid UTF-8' } })
  })

  it('answers a non-JSON content type with 415', async () => {
    const res = await post('a=1', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(res.status).toBe(415)
    expect(await res.json()).toEqual({
      message: 'Content-Type must be application/json',
      error: 'unsupported_media_type',
      detail: 'Content-Type must be application/json',
    })
  })

  it('answers a body over 1 MiB with 413', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(1024 * 1024) }))
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ message: 'Request body is too large', error: 'payload_too_large', detail: 'Request body is too large' })
  })

  it('decodes path parameters and passes query parameters', async () => {
    const res = await fetch(`${url}/items/a%20b?x=1&x=2&y=`)
    expect(await res.json()).toEqual({ params: { id: 'a b' }, query: { x: '2', y: '' } })
    const bad = await fetch(`${url}/items/%E0%A4%A`)
    expect(bad.status).toBe(404)
  })

  it('turns an escaping exception into a 500 without internals and keeps serving', async () => {
    const res = await fetch(`${url}/explode`)
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ message: 'Internal server error', error: 'internal_error', detail: 'Internal server error' })
    expect(text).not.toContain('SELECT')
    expect(errors.at(-1)?.kind).toBe('internal')
    expect((await fetch(`${url}/items/1`)).status).toBe(200)
  })

  it('turns an unreachable database into 503 with Retry-After', async () => {
    const res = await fetch(`${url}/db-down`)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({
      message: 'The service is temporarily unavailable',
      error: 'service_unavailable',
      detail: 'The service is temporarily unavailable',
    })
  })
})

describe('database faults', () => {
  it.each([
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, 'gateway_timeout', 504],
    [{ code: '08006', message: 'connection failure' }, 'service_unavailable', 503],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, 'service_unavailable', 503],
    [{ code: '53300', message: 'too many connections' }, 'service_unavailable', 503],
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'service_unavailable', 503],
    [{ message: 'Connection terminated unexpectedly' }, 'service_unavailable', 503],
    [{ code: '23505', message: 'duplicate key' }, 'internal', 500],
    [new TypeError('x is undefined'), 'internal', 500],
  ])('%j → %s', (error, kind, status) => {
    const mapped = toAppError(Object.assign(error instanceof Error ? error : new Error(error.message), error))
    expect(mapped.kind).toBe(kind)
    expect(mapped.status).toBe(status)
  })
})
