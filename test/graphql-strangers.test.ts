import {
  getIntrospectionQuery,
  getNamedType,
  type GraphQLInputType,
  type GraphQLObjectType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  parse,
} from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { schema } from '../src/app/graphql-schema.ts'
import { COMPLETE_INTROSPECTION_QUERY, maxIntrospectionCost } from '../src/graphql/limits.ts'
import { measureOperation } from '../src/graphql/operation-cost.ts'
import { answersAnonymous } from '../src/graphql/root-fields.ts'
import { MAX_VARIABLE_ERRORS, MAX_VARIABLE_MESSAGE } from '../src/graphql/variables.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { INTROSPECTION_COST_PER_CALL } from '../src/rate-limits/graphql-calls-plugin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { openGraphQLSocket } from './helpers/graphql-socket.ts'
import { leastLoopHeld } from './helpers/loop-hold.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * Strangers (no token, a bad token, or a token no resolver checks) get nothing real before the
 * caller is known (docs/operations.md, "Abuse limits" and "Rate limits").
 */

const CATALOG = '{ symbols { items { symbol pricePrecision quantityPrecision minOrderQuantity tickSize description isActive } } }'
const ORDERS_BY_FILTER = 'query($f: OrderFilter){ orders(filter:$f){ total } }'
const OVERLAPPING = `{ ${Array.from({ length: 700 }, () => 'symbols{items{symbol}}').join(' ')} }`

/** 999 unknown keys of 900 characters: a 0.9 MB variable whose every error graphql-js printed whole. */
function hugeFilter(): Record<string, string> {
  const filter: Record<string, string> = {}
  for (let i = 0; i < 999; i++) filter[`k${i}`.padEnd(900, 'x')] = 'v'
  return filter
}

/** The largest catalog query within the limits: 30 aliased pages of every scalar of a symbol and its currencies. */
function largeCatalogQuery(): string {
  const scalars = (name: string) =>
    Object.values((schema.getType(name) as GraphQLObjectType).getFields())
      .filter((field) => isLeafType(getNamedType(field.type)) && field.args.every((arg) => !isNonNullType(arg.type)))
      .map((field) => field.name)
      .join(' ')
  const page = `symbols(limit: 2) { total offset limit items { ${scalars('Symbol')} properties { ${scalars('CurrencyProperty')} name { fa en } } } }`
  return `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: ${page}`).join(' ')} }`
}

let server: TestServer
let bank: TestClient

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_PER_MIN: '100000', RATE_LIMIT_API_PER_MIN: '100000' })
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
})

afterAll(async () => {
  await server?.close()
})

const post = (body: string, authorization?: string, headers: Record<string, string> = {}) =>
  server.request('POST', '/graphql', {
    rawBody: body,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}), ...headers },
  })

describe('a stranger holds the loop no longer than a bank asking for the catalog', () => {
  it('a bad token with 999 unknown 900-character keys in a variable: the first errors, each short', async () => {
    const body = JSON.stringify({ query: ORDERS_BY_FILTER, variables: { f: hugeFilter() } })
    const res = await post(body, 'Bearer not-a-token')
    expect(res.status).toBe(400)
    expect(res.body.errors).toHaveLength(MAX_VARIABLE_ERRORS)
    for (const [i, error] of (res.body.errors as { message: string; extensions: unknown }[]).entries()) {
      expect(error.message.length).toBeLessThanOrEqual(MAX_VARIABLE_MESSAGE)
      expect(error.message.startsWith(`Variable "$f" got invalid value an object; Field "k${i}xxx`)).toBe(true)
      expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT' })
    }
    // Against a bank's catalog query of the same size (the padding is an unused variable).
    const catalog = JSON.stringify({ query: CATALOG, variables: { pad: 'x'.repeat(body.length - CATALOG.length - 40) } })
    const reference = await leastLoopHeld(() => post(catalog, `Bearer ${bank.token}`))
    const stranger = await leastLoopHeld(() => post(body, 'Bearer not-a-token'))
    expect(stranger).toBeLessThanOrEqual(Math.max(3 * reference, reference + 10))
  })

  it('700 overlapping fields are refused before graphql-js compares them, and counted', async () => {
    const res = await post(JSON.stringify({ query: OVERLAPPING }), 'Bearer x')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      errors: [
        {
          message: 'The document repeats fields too often to validate: over 2000 pairs of fields of one name or of fragments to compare',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    })
    // Against a bank's catalog query of as many tokens (and a fresh comment each time, so neither is a known document).
    const reference = await leastLoopHeld(() => post(JSON.stringify({ query: `# ${Math.random()}\n${largeCatalogQuery()}` }), `Bearer ${bank.token}`))
    const stranger = await leastLoopHeld(() => post(JSON.stringify({ query: `# ${Math.random()}\n${OVERLAPPING}` }), 'Bearer x'))
    expect(stranger).toBeLessThanOrEqual(Math.max(3 * reference, reference + 10))
  })

  it('a comment or spacing before a document that validated does not validate it again', async () => {
    const validations = async () => Number(/^graphql_documents_validated_total (\d+)$/m.exec((await server.request('GET', '/metrics')).text)?.[1] ?? 0)
    const query = '{ symbols(limit: 3) { total items { symbol tickSize } } }'
    // A query string keeps these from the known-document path (which runs no validation at all): Yoga validates.
    const post = (body: string, authorization: string) =>
      server.request('POST', '/graphql?via=yoga', { rawBody: body, headers: { 'content-type': 'application/json', authorization } })
    expect((await post(JSON.stringify({ query }), `Bearer ${bank.token}`)).status).toBe(200)
    const before = await validations()
    for (let i = 0; i < 5; i++) {
      const res = await post(JSON.stringify({ query: `# ${i} ${Math.random()}\n  ${query.replaceAll(' ', '   ')}` }), `Bearer ${bank.token}`)
      expect(res.status).toBe(200)
      expect(res.body.data.symbols.total).toBe(8)
    }
    expect(await validations()).toBe(before)
    // A document of another form is validated.
    expect((await post(JSON.stringify({ query: '{ symbols(limit: 4) { total } }' }), `Bearer ${bank.token}`)).status).toBe(200)
    expect(await validations()).toBe(before + 1)
  })
})

describe('every GraphQL request counts', () => {
  let limited: TestServer
  let client: TestClient
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_ANON_PER_MIN: '3', TRUST_PROXY: 'true' })
    client = await createTestClient(limited)
  })
  afterAll(async () => {
    await limited?.close()
  })
  const from = (ip: string, authorization?: string) => ({
    'content-type': 'application/json',
    'x-forwarded-for': ip,
    ...(authorization ? { authorization } : {}),
  })
  const send = (ip: string, query: string, authorization?: string, variables?: object) =>
    limited.request('POST', '/graphql', { rawBody: JSON.stringify({ query, variables }), headers: from(ip, authorization) })
  const RATE_LIMITED = [{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', error: 'rate_limited' } }]

  it.each([
    ['variables that do not coerce', '203.0.113.60', ORDERS_BY_FILTER, { f: { nope: 1 } }, 400],
    ['a document that fails validation', '203.0.113.61', '{ symbols { nope } }', undefined, 200],
    ['introspection', '203.0.113.62', '{ __schema { queryType { name } } }', undefined, 200],
    ['a document that does not parse', '203.0.113.63', '{ symbols {', undefined, 200],
  ])('with a bad token, %s: counted against the address, 429 over the limit', async (_name, ip, query, variables, status) => {
    for (let i = 0; i < 3; i++) expect((await send(ip, query, 'Bearer x', variables)).status).toBe(status)
    const refused = await send(ip, query, 'Bearer x', variables)
    expect(refused.status).toBe(429)
    expect(refused.body.errors).toEqual(RATE_LIMITED)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('with a valid token, a request that no resolver authenticates counts against the address', async () => {
    const ip = '203.0.113.70'
    const token = `Bearer ${client.token}`
    // Introspection only, the public fields only: counted against the address, not the client.
    expect((await send(ip, '{ __typename }', token)).headers.get('ratelimit-remaining')).toBe('2')
    expect((await send(ip, '{ serverTime { epochMs } health { status } }', token)).headers.get('ratelimit-remaining')).toBe('1')
    expect((await send(ip, '{ __schema { queryType { name } } }', token)).status).toBe(200)
    expect((await send(ip, '{ __type(name: "Order") { name } }', token)).body.errors).toEqual(RATE_LIMITED)
    // A field that authenticates counts against the client's API limit: the address's allowance is not its concern.
    const viewer = await send(ip, '{ viewer { uid } }', token)
    expect(viewer.body).toEqual({ data: { viewer: { uid: client.clientId } } })
    expect(Number(viewer.headers.get('ratelimit-limit'))).toBe(limited.config.rateLimitApiPerMin)
  })

  it('introspection counts by what it returns: a complete one is many calls', async () => {
    const query = getIntrospectionQuery()
    const calls = 1 + Math.floor(measureOperation(schema, parse(query), undefined, { listSize: 100 })!.measure.introspectionCost / INTROSPECTION_COST_PER_CALL)
    expect(calls).toBeGreaterThan(20)
    // An allowance for one complete introspection and ten calls more, whatever the schema's size.
    const allowance = calls + 10
    const big = await startTestServer({ RATE_LIMIT_ANON_PER_MIN: String(allowance), TRUST_PROXY: 'true' }, limited.database)
    try {
      const first = await big.request('POST', '/graphql', { rawBody: JSON.stringify({ query }), headers: from('203.0.113.80') })
      expect(first.status).toBe(200)
      expect(first.headers.get('ratelimit-remaining')).toBe(String(allowance - calls))
      const second = await big.request('POST', '/graphql', { rawBody: JSON.stringify({ query }), headers: from('203.0.113.80') })
      expect(second.status).toBe(429)
    } finally {
      await big.stop()
    }
  })
})

describe('GraphQL errors carry a code, and a status by their kind and the Accept header (docs/api.md)', () => {
  it.each([
    ['does not parse', '{ symbols {', undefined, 'GRAPHQL_PARSE_FAILED', 200, 400],
    ['does not validate', '{ symbols { nope } }', undefined, 'GRAPHQL_VALIDATION_FAILED', 200, 400],
    ['variables do not coerce', ORDERS_BY_FILTER, { f: { side: 'up' } }, 'BAD_USER_INPUT', 400, 400],
    ['a resolver refuses (no token)', '{ viewer { uid } }', undefined, 'UNAUTHENTICATED', 401, 401],
  ])('%s', async (_name, query, variables, code, asJson, asGraphQLResponse) => {
    for (const [accept, status] of [
      ['application/json', asJson],
      ['application/graphql-response+json', asGraphQLResponse],
    ] as const) {
      const res = await post(JSON.stringify({ query, variables }), undefined, { accept })
      expect([res.status, res.body.errors[0].extensions.code]).toEqual([status, code])
    }
  })
})

describe('over WebSocket', () => {
  it('variable errors carry extensions.code, bounded as over HTTP', async () => {
    const socket = await openGraphQLSocket(server.url)
    try {
      await socket.init(`Bearer ${bank.token}`)
      socket.subscribe('v', ORDERS_BY_FILTER, { f: hugeFilter() })
      const messages = await socket.operation('v')
      const errors = (messages[0]!.payload.errors ?? messages[0]!.payload) as { message: string; extensions: unknown }[]
      expect(errors).toHaveLength(MAX_VARIABLE_ERRORS)
      for (const error of errors) {
        expect(error.message.length).toBeLessThanOrEqual(MAX_VARIABLE_MESSAGE)
        // Over WebSocket errors keep their `http` extension (no HTTP response takes it), as every error there does.
        expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', http: { status: 400 } })
      }
    } finally {
      socket.close()
    }
  })
})

describe('declarations the counting relies on', () => {
  it('every root field authenticates its caller unless it is declared to answer anonymous callers', async () => {
    const declared = (['query', 'mutation'] as const).flatMap((operation) =>
      Object.keys(schema.getRootType(operation as never)!.getFields()).filter((name) => answersAnonymous(schema, operation as never, name)),
    )
    expect(declared.sort()).toEqual(['health', 'login', 'refresh', 'serverTime'])
    // The others answer UNAUTHENTICATED without a token, before anything else.
    for (const operation of ['query', 'mutation'] as const) {
      const root = schema.getRootType(operation as never)!
      for (const field of Object.values(root.getFields())) {
        if (answersAnonymous(schema, operation as never, field.name)) continue
        const args = field.args.filter((a) => String(a.type).endsWith('!'))
        const vars = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')
        const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : ''
        const leaf = String(field.type).replace(/[[\]!]/g, '')
        const selection = ['String', 'Int', 'Boolean', 'Decimal', 'DateTime', 'JSON', 'ID'].includes(leaf) ? '' : ' { __typename }'
        const document = `${operation}${vars ? `(${vars})` : ''} { ${field.name}${call}${selection} }`
        const res = await server.graphql(document, Object.fromEntries(args.map((a) => [a.name, sample(a.type)])))
        expect(res.errors?.[0]?.extensions.code, `${operation} ${field.name}: ${JSON.stringify(res.errors)}`).toBe('UNAUTHENTICATED')
      }
    }
  })

  it('a complete introspection (GraphiQL) fits the introspection limit; twice over does not', async () => {
    const query = COMPLETE_INTROSPECTION_QUERY
    expect((await server.graphql(query)).errors).toBeUndefined()
    const twice = query.replace('__schema {', 'again: __schema { types { ...FullType } } __schema {')
    const res = await server.graphql(twice)
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(new RegExp(`has an introspection cost of \\d+, over the limit of ${maxIntrospectionCost(schema)}$`)),
      }),
    ])
  })
})

describe('introspection is held by what it executes', () => {
  // What an answer holds, counted: the work of resolving it, without a clock.
  const values = (v: unknown): number => (v !== null && typeof v === 'object' ? Object.values(v).reduce((n: number, x) => n + values(x), 0) : 1)
  const aliased = (n: number, selection: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(' ')} }`

  it('a partial introspection repeated under aliases is admitted only up to about what a complete one returns', async () => {
    const complete = await server.graphql(COMPLETE_INTROSPECTION_QUERY)
    expect(complete.errors).toBeUndefined()
    // Every field and argument, under as many aliases as the limit admits: once, 14 (the chains of
    // `ofType` of the complete query, null below a named type, were counted whole).
    const walk = '__schema { types { name description fields { name description args { name type { name } } } } }'
    let admitted = 0
    while ((await server.graphql(aliased(admitted + 1, walk))).errors === undefined) admitted++
    expect(admitted).toBeGreaterThanOrEqual(1)
    const answered = await server.graphql(aliased(admitted, walk))
    expect(values(answered.data)).toBeLessThanOrEqual(2 * values(complete.data))
    expect((await server.graphql(aliased(admitted + 1, walk))).errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(new RegExp(`over the limit of ${maxIntrospectionCost(schema)}$`)) }),
    ])
  })
})

/** A value of `type` that coerces: required input fields filled in, lists empty. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType)
  if (isListType(type)) return []
  if (isEnumType(type)) return type.getValues()[0]!.value
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
    return Object.fromEntries(required.map((field) => [field.name, sample(field.type)]))
  }
  if (type.name === 'Int') return 1
  if (type.name === 'Boolean') return true
  if (type.name === 'Decimal') return '1'
  if (type.name === 'DateTime') return '2026-01-01T00:00:00Z'
  return '00000000-0000-4000-8000-000000000000'
}
