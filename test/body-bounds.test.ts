import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MAX_DETAIL_ITEMS } from '../src/core/errors.ts'
import { MAX_VARIABLE_ERRORS } from '../src/graphql/variables.ts'
import { MAX_JSON_KEYS, MAX_JSON_KEYS_PER_OBJECT, parseJsonText } from '../src/http/json-body.ts'
import { MAX_BODY_BYTES } from '../src/http/request-body.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { openGraphQLSocket } from './helpers/graphql-socket.ts'
import { ORDERS, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/** An object of `n` distinct short keys (base 36, at most 4 characters below 1.6 million). */
const keyed = (n: number, prefix = '') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i.toString(36)}`, 0]))
const jsonInvalid = (position: number, error: string) => ({
  type: 'json_invalid',
  loc: ['body', position],
  msg: 'JSON decode error',
  input: {},
  ctx: { error },
})
const refusedAt = (text: string) => {
  try {
    parseJsonText(text)
  } catch (error) {
    return (error as { detail: unknown }).detail
  }
  return undefined
}

describe('JSON breadth limit', () => {
  it(`parses an object of ${MAX_JSON_KEYS_PER_OBJECT} keys and refuses one more, at the key over the limit`, () => {
    expect(Object.keys(parseJsonText(JSON.stringify(keyed(MAX_JSON_KEYS_PER_OBJECT))) as object)).toHaveLength(MAX_JSON_KEYS_PER_OBJECT)
    const text = JSON.stringify({ a: { b: 1 }, c: keyed(MAX_JSON_KEYS_PER_OBJECT + 1) })
    const over = text.indexOf(`"${MAX_JSON_KEYS_PER_OBJECT.toString(36)}"`)
    expect(refusedAt(text)).toEqual([jsonInvalid(over, `Maximum of ${MAX_JSON_KEYS_PER_OBJECT} keys per object exceeded`)])
  })

  it(`parses ${MAX_JSON_KEYS} keys in all and refuses one more, wherever they are`, () => {
    const objects = MAX_JSON_KEYS / MAX_JSON_KEYS_PER_OBJECT
    const full = Array.from({ length: objects }, () => keyed(MAX_JSON_KEYS_PER_OBJECT))
    expect(parseJsonText(JSON.stringify(full))).toHaveLength(objects)
    const text = JSON.stringify([...full, { last: 1 }])
    expect(refusedAt(text)).toEqual([jsonInvalid(text.lastIndexOf('"last"'), `Maximum of ${MAX_JSON_KEYS} keys per body exceeded`)])
  })

  it('counts keys only: not strings that look like keys, nor array items', () => {
    const lookalike = `{${Array.from({ length: 2000 }, (_, i) => `\\"k${i}\\":0`).join(',')}}`
    expect(parseJsonText(`{"a":"${lookalike}","b":"\\\\"}`)).toEqual({ a: lookalike.replaceAll('\\"', '"'), b: '\\' })
    expect(parseJsonText(JSON.stringify({ a: Array.from({ length: 20_000 }, (_, i) => `k${i}`) }))).toMatchObject({ a: expect.any(Array) })
    expect(parseJsonText(JSON.stringify([Array.from({ length: 5000 }, () => ({ a: 1 }))]))).toHaveLength(1)
  })
})

let server: TestServer
let bank: TestClient
beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

const post = async (path: string, text: string, token?: string) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }
  const res = await server.request('POST', path, { rawBody: text, token, headers })
  return { status: res.status, body: res.body, length: res.text.length }
}

/**
 * The fastest of five answers to `text`, over the fastest of five to a baseline of the same size
 * that the bound lets through, interleaved: a ratio, so it holds on a busy host.
 */
async function slowdown(path: string, text: string, baseline: string, token?: string): Promise<number> {
  expect(Math.abs(baseline.length - text.length)).toBeLessThan(text.length / 10)
  let [best, bestBaseline] = [Infinity, Infinity]
  for (let i = 0; i < 5; i++) {
    let started = performance.now()
    await post(path, text, token)
    best = Math.min(best, performance.now() - started)
    started = performance.now()
    await post(path, baseline, token)
    bestBaseline = Math.min(bestBaseline, performance.now() - started)
  }
  return best / bestBaseline
}

describe('bodies too broad are refused before they are parsed', () => {
  it('an anonymous GraphQL body of 100,000 keys: 400, at the cost of a body of one string', async () => {
    const text = JSON.stringify({ query: '{ health { status } }', variables: keyed(100_000) })
    expect(text.length).toBeLessThanOrEqual(MAX_BODY_BYTES)
    const res = await post('/graphql', text)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      errors: [{ message: `Request body has an object with more than ${MAX_JSON_KEYS_PER_OBJECT} keys`, extensions: { code: 'BAD_REQUEST' } }],
    })
    const baseline = JSON.stringify({ query: '{ health { status } }', variables: { pad: 'x'.repeat(text.length - 50) } })
    expect((await post('/graphql', baseline)).status).toBe(200)
    expect(await slowdown('/graphql', text, baseline)).toBeLessThan(3)
  })

  it(`a GraphQL body of more than ${MAX_JSON_KEYS} keys in small objects: 400`, async () => {
    const variables = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`v${i}`, keyed(MAX_JSON_KEYS_PER_OBJECT)]))
    const res = await post('/graphql', JSON.stringify({ query: '{ health { status } }', variables }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ errors: [{ message: `Request body has more than ${MAX_JSON_KEYS} keys`, extensions: { code: 'BAD_REQUEST' } }] })
  })

  it('an order body of 90,000 keys: 422 json_invalid of a few hundred bytes, at the cost of an order body of one long field', async () => {
    const text = JSON.stringify({ ...usdBuy, ...keyed(90_000, 'x') })
    const res = await post(ORDERS, text, bank.token)
    expect(res.status).toBe(422)
    const over = text.indexOf(`"x${(MAX_JSON_KEYS_PER_OBJECT - 5).toString(36)}"`)
    expect(res.body).toEqual({ detail: [jsonInvalid(over, `Maximum of ${MAX_JSON_KEYS_PER_OBJECT} keys per object exceeded`)] })
    expect(res.length).toBeLessThan(300)
    const baseline = JSON.stringify({ ...usdBuy, pad: 'x'.repeat(text.length - 100) })
    expect((await post(ORDERS, baseline, bank.token)).status).toBe(422)
    expect(await slowdown(ORDERS, text, baseline, bank.token)).toBeLessThan(3)
  })

  it('a normal order and a normal GraphQL request still succeed', async () => {
    expect((await post(ORDERS, JSON.stringify(usdBuy), bank.token)).status).toBe(201)
    expect(await post('/graphql', JSON.stringify({ query: '{ health { status } }' }))).toMatchObject({
      status: 200,
      body: { data: { health: { status: 'ok' } } },
    })
  })
})

describe(`a refusal lists at most ${MAX_DETAIL_ITEMS} problems`, () => {
  // With an order's fields, just under the 1,000 keys an object may have.
  const UNKNOWN = 990
  const extra = (key: string) => ({ type: 'value_error.extra', loc: ['body', key], msg: 'extra fields not permitted' })

  it('REST: an order of 990 unknown fields and a bad side is told the side first, then the first unknown fields', async () => {
    const res = await post(ORDERS, JSON.stringify({ ...usdBuy, side: 'up', ...keyed(UNKNOWN, 'x') }), bank.token)
    expect(res.status).toBe(422)
    expect(res.body.detail).toHaveLength(MAX_DETAIL_ITEMS)
    expect(res.body.detail[0]).toEqual({
      type: 'type_error.enum',
      loc: ['body', 'side'],
      msg: "value is not a valid enumeration member; permitted: 'buy', 'sell'",
      input: 'up',
      ctx: { enum_values: ['buy', 'sell'] },
    })
    expect(res.body.detail.slice(1)).toEqual(Array.from({ length: MAX_DETAIL_ITEMS - 1 }, (_, i) => extra(`x${i.toString(36)}`)))
    expect(res.length).toBeLessThan(3000)
  })

  it('REST: unknown list parameters too', async () => {
    const query = Array.from({ length: 500 }, (_, i) => `p${i}=1`).join('&')
    const res = await server.request('GET', `${ORDERS}?${query}`, { token: bank.token })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual(
      Array.from({ length: MAX_DETAIL_ITEMS }, (_, i) => ({ type: 'value_error.extra', loc: ['query', `p${i}`], msg: 'extra fields not permitted' })),
    )
  })

  it(`GraphQL createOrder with 990 unknown input fields: the first ${MAX_VARIABLE_ERRORS} errors, none echoing the input`, async () => {
    const query = 'mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }'
    const res = await post('/graphql', JSON.stringify({ query, variables: { input: { ...usdBuy, ...keyed(UNKNOWN, 'x') } } }), bank.token)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      errors: Array.from({ length: MAX_VARIABLE_ERRORS }, (_, i) => ({
        message: `Variable "$input" got invalid value an object; Field "x${i.toString(36)}" is not defined by type "CreateOrderInput".`,
        locations: [{ line: 1, column: 10 }],
        extensions: { code: 'BAD_USER_INPUT' },
      })),
    })
    expect(res.length).toBeLessThan(5_000)
  })
})

describe('a key twice in one JSON object', () => {
  const duplicate = (...loc: (string | number)[]) => ({ type: 'value_error.json.duplicate_key', loc: ['body', ...loc], msg: 'Duplicate key in JSON object' })

  it('an order with "side" twice: 422 at the key, and no order placed', async () => {
    const trader = await createTestClient(server)
    const text = `{"symbol":"USD-IRR","side":"sell","type":"limit","quantity":"1000","price":"1050000","side":"buy"}`
    const res = await post(ORDERS, text, trader.token)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [duplicate('side')] })
    const list = await server.request('GET', ORDERS, { token: trader.token })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ items: [], total: 0 })
  })

  it('a login with client_id twice: 422, however the last one would have logged in', async () => {
    const bank = await createTestClient(server)
    const text = `{"client_id":"someone-else","client_secret":${JSON.stringify(bank.clientSecret)},"client_id":${JSON.stringify(bank.clientId)}}`
    const res = await post('/api/sso/v1/auth/login', text)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [duplicate('client_id')] })
    // The same fields once each log in.
    const once = JSON.stringify({ client_id: bank.clientId, client_secret: bank.clientSecret })
    expect((await post('/api/sso/v1/auth/login', once)).status).toBe(200)
  })

  describe('GraphQL, on every way in', () => {
    const mutation = 'mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { side } } }'
    const twice = `{"symbol":"USD-IRR","side":"sell","type":"limit","quantity":"1000","price":"1050000","side":"buy"}`
    const refusal = (path: string) => ({ errors: [{ message: `Request JSON has a key twice in one object: ${path}`, extensions: { code: 'BAD_REQUEST' } }] })
    const noOrders = async (token: string) => expect((await server.request('GET', ORDERS, { token })).body).toMatchObject({ total: 0 })

    it('a POST body: 400 BAD_REQUEST naming the key, and no order placed', async () => {
      const trader = await createTestClient(server)
      const res = await post('/graphql', `{"query":${JSON.stringify(mutation)},"variables":{"input":${twice}}}`, trader.token)
      expect([res.status, res.body]).toEqual([400, refusal('"variables"."input"."side"')])
      // Before the bound's fast path too: the same text again.
      expect((await post('/graphql', `{"query":${JSON.stringify(mutation)},"variables":{"input":${twice}}}`, trader.token)).status).toBe(400)
      await noOrders(trader.token)
    })

    it('GET variables: the same refusal', async () => {
      const trader = await createTestClient(server)
      const query = 'query($f: OrderFilter) { orders(filter: $f) { total } }'
      const url = `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{"f":{"side":"buy","side":"sell"}}')}`
      const res = await server.request('GET', url, { token: trader.token, headers: { accept: 'application/json' } })
      expect([res.status, res.body]).toEqual([400, refusal('"variables"."f"."side"')])
    })

    it('a WebSocket message: the socket is closed 4400', async () => {
      const trader = await createTestClient(server)
      const socket = await openGraphQLSocket(server.url)
      await socket.init(`Bearer ${trader.token}`)
      socket.socket.send(`{"id":"1","type":"subscribe","payload":{"query":${JSON.stringify(mutation)},"variables":{"input":${twice}}}}`)
      expect(await socket.closed).toEqual({ code: 4400, reason: 'Message JSON has a key twice in one object' })
      await noOrders(trader.token)
    })
  })
})
