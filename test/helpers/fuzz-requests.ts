import { randomUUID } from 'node:crypto'

import {
  getNamedType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql'

import type { Route } from '../../src/http/router.ts'

/** A small seeded PRNG (mulberry32): the same seed gives the same requests. */
export class Random {
  #state: number
  constructor(seed: number) {
    this.#state = seed >>> 0
  }
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n)
    for (let i = 0; i < n; i++) out[i] = this.int(0, 255)
    return out
  }
  /** `n` characters from `alphabet` (long strings repeat a random 64-character pattern: cheap to make). */
  string(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~'): string {
    const chars = (k: number) => {
      let s = ''
      for (let i = 0; i < k; i++) s += alphabet[Math.floor(this.next() * alphabet.length)]
      return s
    }
    if (n <= 256) return chars(n)
    return chars(64)
      .repeat(Math.ceil(n / 64))
      .slice(0, n)
  }
}

export interface FuzzContext {
  routes: Route[]
  schema: GraphQLSchema
  /** Valid access tokens, client ids and credentials to reach code behind authentication. */
  tokens: string[]
  clientIds: string[]
  credentials: { clientId: string; clientSecret: string }[]
}

export interface FuzzRequest {
  kind: string
  bytes: Buffer
  /** Requests the server may rightly drop without an answer (a body cut short). */
  mayGoUnanswered?: boolean
}

const CRLF = '\r\n'

const WEIRD_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  'NaN',
  '9'.repeat(400),
  '../../etc/passwd',
  '%00',
  '\u0000',
  '😀🏦',
  'ﬀ\u202e',
  '\ud800',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  '2026-13-45T99:99:99Z',
  '2026-11-25T21:30:00Z',
  'USD-IRR',
  'buy',
  'limit',
  '*:*',
]

function randomScalar(r: Random, ctx: FuzzContext): unknown {
  switch (r.int(0, 11)) {
    case 0:
      return null
    case 1:
      return r.chance(0.5)
    case 2:
      return r.int(-1_000_000, 1_000_000)
    case 3:
      return r.pick([0, -0, 1e308, -1e308, 0.1, 1.5e-300, Number.MAX_SAFE_INTEGER, 2 ** 63, 100, 101, -1])
    case 4:
      return r.pick(WEIRD_STRINGS)
    case 5:
      return r.string(r.int(0, 40))
    case 6:
      return r.string(r.int(1000, 120_000), 'ab')
    case 7:
      return randomUUID()
    case 8:
      return r.pick(ctx.clientIds)
    case 9:
      return r.string(r.int(1, 30), 'äöü€ßçñ漢字ملی😀\u0301\u200b')
    case 10:
      return `${r.int(0, 99999)}.${r.string(r.int(0, 30), '0123456789')}`
    default:
      return r.pick(ctx.tokens)
  }
}

function randomJson(r: Random, ctx: FuzzContext, depth = 0): unknown {
  if (depth > 4 || r.chance(0.45)) return randomScalar(r, ctx)
  if (r.chance(0.5)) return Array.from({ length: r.int(0, 5) }, () => randomJson(r, ctx, depth + 1))
  const keys = [
    'client_id',
    'client_secret',
    'refresh_token',
    'symbol',
    'side',
    'type',
    'quantity',
    'price',
    'client_order_id',
    'username',
    'email',
    'offset',
    'limit',
    'name',
    'tenant_id',
    'query',
    'variables',
    r.string(r.int(1, 12)),
  ]
  const out: Record<string, unknown> = {}
  for (let i = r.int(0, 8); i > 0; i--) out[r.pick(keys)] = randomJson(r, ctx, depth + 1)
  return out
}

/** A body for a route: mostly JSON of wrong and right shapes, sometimes anything at all. */
function randomBody(r: Random, ctx: FuzzContext): Buffer | undefined {
  switch (r.int(0, 13)) {
    case 0:
      return undefined
    case 1:
      return Buffer.alloc(0)
    case 2:
      return r.bytes(r.int(1, 2000))
    case 3: {
      // Invalid UTF-8 inside otherwise plausible JSON.
      const good = Buffer.from(JSON.stringify({ client_id: 'x', client_secret: 'y' }))
      const at = r.int(1, good.length - 2)
      return Buffer.concat([good.subarray(0, at), Buffer.from([r.pick([0xff, 0xc0, 0xe2, 0xed, 0xf4, 0x80])]), good.subarray(at)])
    }
    case 4: {
      const depth = r.pick([100, 1000, 10_000, 100_000])
      return Buffer.from(r.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
    }
    case 5:
      return Buffer.from(`{"a":"${r.string(r.int(200_000, 600_000), 'x')}"}`)
    case 6:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(randomJson(r, ctx)))])
    case 7:
      return Buffer.from(
        r.pick([
          '{',
          '}',
          '[',
          '"',
          '{"a":}',
          '{"a" 1}',
          '{"a":1,}',
          '[1,]',
          'nul',
          'tru',
          '01',
          '1e',
          '-',
          '"\\x"',
          '"\\u12"',
          '{"a":"\u0001"}',
          'NaN',
          'Infinity',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{}}}',
        ]),
      )
    case 8: {
      const c = r.pick(ctx.credentials)
      return Buffer.from(
        JSON.stringify(
          r.chance(0.5) ? { client_id: c.clientId, client_secret: c.clientSecret } : { client_id: c.clientId, client_secret: `${c.clientSecret}x` },
        ),
      )
    }
    case 9:
      return Buffer.from(JSON.stringify(Array.from({ length: r.int(0, 2000) }, () => r.int(0, 9))))
    default:
      return Buffer.from(JSON.stringify(randomJson(r, ctx)))
  }
}

/** Percent-encodes the UTF-8 bytes of `s` (lone surrogates included, as U+FFFD). */
const percentEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('')

function randomPathValue(r: Random, ctx: FuzzContext): string {
  switch (r.int(0, 9)) {
    case 0:
      return randomUUID()
    case 1:
      return r.pick(ctx.clientIds)
    case 2:
      return percentEncode(r.pick(WEIRD_STRINGS)) || '%20'
    case 3:
      return r.pick(['%zz', '%', '%u0041', '%E0%A4%A', '%C0%AF', '%FF', '..', '.', '%2e%2e', '%2F', 'a%00b', '%F0%9F%98%80'])
    case 4:
      return r.string(r.int(1000, 6000))
    case 5:
      return r.pick(['USD-IRR', 'usd-irr', 'ETH-IRT', 'BTC-USDT', 'XXX-YYY'])
    case 6:
      return String(r.int(-5, 1e9))
    default:
      return r.string(r.int(1, 40))
  }
}

function randomQuery(r: Random): string {
  if (r.chance(0.3)) return ''
  const keys = [
    'offset',
    'limit',
    'order_by',
    'symbol',
    'side',
    'status',
    'is_active',
    'created_at_from',
    'created_at_to',
    'updated_at_from',
    'username',
    'email',
    'tenant_id',
    'query',
    'variables',
    'operationName',
    'extensions',
    'a[]',
    '',
    '=',
    r.string(r.int(1, 10)),
  ]
  const values = [
    '',
    '0',
    '-1',
    '100',
    '101',
    '1e3',
    'abc',
    'true',
    'yes',
    '2026-11-25T21:30:00Z',
    '2026-11-25',
    '2026/11/25',
    '-created_at',
    'created_at',
    '%zz',
    '%',
    '{',
    '{health{status}}',
    '%7B%22a%22%3A1%7D',
    r.string(r.int(0, 3000)),
  ]
  const parts: string[] = []
  for (let i = r.int(1, 6); i > 0; i--) {
    const k = r.pick(keys)
    parts.push(r.chance(0.1) ? k : `${k}=${r.pick(values)}`)
  }
  return `?${parts.join(r.chance(0.9) ? '&' : r.pick([';', '&&', '&=&']))}`
}

function authorization(r: Random, ctx: FuzzContext): string | undefined {
  const token = r.pick(ctx.tokens)
  switch (r.int(0, 12)) {
    case 0:
    case 1:
    case 2:
      return undefined
    case 3:
    case 4:
    case 5:
      return `Bearer ${token}`
    case 6:
      return `bearer ${token}`
    case 7:
      return `Bearer  ${token}`
    case 8:
      return `Bearer ${token.slice(0, -3)}${r.string(3)}`
    case 9:
      return r.pick([
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer a.b.c',
        'Bearer ....',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        `Bearer ${'A'.repeat(8000)}.${'B'.repeat(100)}.C`,
      ])
    case 10: {
      // An unsigned token claiming to be an admin, and one signed with alg none.
      const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
      return `Bearer ${part({ alg: r.pick(['none', 'HS256', 'EdDSA', 'RS256']), kid: r.pick(['x', '', '../../etc']), typ: 'at+jwt' })}.${part({ sub: randomUUID(), roles: ['admin'], scopes: ['*:*'], exp: 9e9 })}.${r.string(r.int(0, 86))}`
    }
    case 11:
      return r.string(r.int(1, 300), 'abcdefABCDEF0123456789 .-_=+/!#$%&*')
    default:
      return `Bearer ${r.string(r.int(10, 200))}.${r.string(r.int(10, 400))}.${r.string(r.int(0, 90))}`
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/json; charset=latin1',
  'application/problem+json',
  'application/graphql+json',
  'application/graphql',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zzz',
  'multipart/form-data',
  'application/octet-stream',
  '*/*',
  ';;;',
  'application/json, text/plain',
  'a'.repeat(2000),
]

interface Head {
  method: string
  target: string
  version?: string
  headers: [string, string][]
  body?: Buffer
  chunked?: boolean
}

function serialise(head: Head): Buffer {
  const lines = [`${head.method} ${head.target} ${head.version ?? 'HTTP/1.1'}`]
  for (const [name, value] of head.headers) lines.push(`${name}: ${value}`)
  const body = head.body ?? Buffer.alloc(0)
  if (head.chunked) {
    lines.push('Transfer-Encoding: chunked')
    const chunks: Buffer[] = []
    for (let i = 0; i < body.length; i += 4096) {
      const part = body.subarray(i, i + 4096)
      chunks.push(Buffer.from(`${part.length.toString(16)}${CRLF}`), part, Buffer.from(CRLF))
    }
    chunks.push(Buffer.from(`0${CRLF}${CRLF}`))
    return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), ...chunks])
  }
  if (head.body !== undefined) lines.push(`Content-Length: ${body.length}`)
  return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), body])
}

function commonHeaders(r: Random, ctx: FuzzContext, body: Buffer | undefined): [string, string][] {
  const headers: [string, string][] = [
    ['Host', r.chance(0.95) ? '127.0.0.1' : r.pick(['', 'exchange.test:99999', '[::1', 'a b', 'ä.example', '..', `${r.string(300)}.example`])],
  ]
  if (body !== undefined || r.chance(0.2)) {
    if (r.chance(0.85)) headers.push(['Content-Type', r.chance(0.7) ? 'application/json' : r.pick(CONTENT_TYPES)])
    if (r.chance(0.05)) headers.push(['Content-Type', r.pick(CONTENT_TYPES)])
  }
  const auth = authorization(r, ctx)
  if (auth !== undefined) headers.push(['Authorization', auth])
  if (r.chance(0.05)) headers.push(['Authorization', authorization(r, ctx) ?? 'Bearer x.y.z'])
  if (r.chance(0.2))
    headers.push([
      'Accept',
      r.pick([
        'application/json',
        'application/graphql-response+json',
        'text/html',
        'text/event-stream',
        'multipart/mixed',
        '*/*',
        'image/png',
        ',,,',
        'application/json; charset=latin1',
      ]),
    ])
  if (r.chance(0.1)) headers.push(['X-Request-Id', r.pick(['ok-id', '', ' ', r.string(200), 'bad id', '\u00e4'])])
  if (r.chance(0.1)) headers.push(['X-Forwarded-For', r.pick(['1.2.3.4', 'garbage', '1.2.3.4, ::1, 999.9.9.9', ''])])
  if (r.chance(0.05)) headers.push(['Origin', r.pick(['https://evil.example', 'null', ''])])
  if (r.chance(0.05)) headers.push(['Accept-Encoding', r.pick(['gzip', 'br', 'identity;q=0', '*'])])
  if (r.chance(0.05)) headers.push(['Cookie', `session=${r.string(40)}`])
  if (r.chance(0.03)) headers.push(['Expect', '100-continue'])
  if (r.chance(0.05)) headers.push([r.string(r.int(1, 20), 'abcdefghijklmnopqrstuvwxyz-'), r.string(r.int(0, 200))])
  if (r.chance(0.03)) headers.push(['X-Obs-Text', Buffer.from([0xe4, 0xf6, 0xfc, 0x80, 0xff]).toString('latin1')])
  return headers
}

/** A request to a route of the application: plausible paths, anything in them. */
function routeRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const route = r.pick(ctx.routes)
  const path = route.path.replace(/:[A-Za-z_]+/g, () => randomPathValue(r, ctx)) + (r.chance(0.05) ? '/' : '')
  const method = r.chance(0.75) ? route.method : r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'])
  const body = method === 'GET' || method === 'HEAD' ? (r.chance(0.1) ? randomBody(r, ctx) : undefined) : randomBody(r, ctx)
  return {
    kind: `route ${route.method} ${route.path}`,
    bytes: serialise({ method, target: path + randomQuery(r), headers: commonHeaders(r, ctx, body), body, chunked: body !== undefined && r.chance(0.1) }),
  }
}

function unknownRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const segments = Array.from({ length: r.int(0, 6) }, () => randomPathValue(r, ctx))
  const target = r.pick([
    `/${segments.join('/')}`,
    `/api/${segments.join('/')}`,
    `//${segments.join('//')}`,
    `/api/sso/v1/${segments.join('/')}`,
    `http://127.0.0.1/${segments.join('/')}`,
    '*',
    '/graphql/',
    '/GRAPHQL',
    '/metrics/',
    '/healthz/../readyz',
    '/%2e%2e/%2e%2e/etc/passwd',
  ])
  const method = r.pick(['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PUT'])
  const body = method === 'POST' || method === 'PUT' ? randomBody(r, ctx) : undefined
  return { kind: 'unknown path', bytes: serialise({ method, target: target + randomQuery(r), headers: commonHeaders(r, ctx, body), body }) }
}

/** A GraphQL document from the real schema's fields, with wrong arguments, aliases, fragments and directives. */
function randomDocument(r: Random, ctx: FuzzContext): { query: string; variables: unknown } {
  const variables: Record<string, unknown> = {}
  const defs: string[] = []
  const value = (type: GraphQLInputType | undefined, depth: number): string => {
    if (r.chance(0.1)) {
      const name = `v${defs.length}`
      defs.push(`$${name}: ${type ? String(type) : r.pick(['String', 'Int', 'JSON', 'ID!', '[String]'])}`)
      variables[name] = randomJson(r, ctx)
      return `$${name}`
    }
    const named = type ? getNamedType(type) : undefined
    if (r.chance(0.15) || !named)
      return r.pick(['null', '1', '-1', '1.5', '"x"', 'true', 'FOO', '[1, "a"]', '{ a: 1 }', `"${r.string(r.int(0, 500))}"`, '""', '99999999999999999999'])
    if (isListType(type) || (isNonNullType(type) && isListType(type.ofType))) return `[${value(named as GraphQLInputType, depth + 1)}]`
    if (isEnumType(named)) return r.pick(named.getValues()).name
    if (isInputObjectType(named) && depth < 3) {
      const fields = Object.values(named.getFields())
      return `{ ${fields
        .filter(() => r.chance(0.6))
        .map((f) => `${f.name}: ${value(f.type, depth + 1)}`)
        .join(', ')} }`
    }
    if (isScalarType(named)) {
      switch (named.name) {
        case 'Int':
          return String(r.pick([0, 1, -1, 100, 101, 2147483648, r.int(-1000, 1000)]))
        case 'Boolean':
          return r.pick(['true', 'false'])
        default:
          return JSON.stringify(String(randomScalar(r, ctx)))
      }
    }
    return 'null'
  }
  const selection = (type: GraphQLObjectType, depth: number): string => {
    const fields = Object.values(type.getFields())
    const picked: string[] = []
    for (let i = r.int(1, 4); i > 0; i--) {
      const field = r.pick(fields)
      const args = field.args.filter(() => r.chance(0.7)).map((a) => `${a.name}: ${value(a.type, 0)}`)
      if (r.chance(0.05)) args.push(`${r.string(5)}: 1`)
      const named = getNamedType(field.type)
      const alias = r.chance(0.15) ? `${r.string(4, 'abcdefgh')}: ` : ''
      const directive = r.chance(0.05)
        ? r.pick([' @include(if: true)', ' @skip(if: false)', ' @skip(if: $nope)', ' @deprecated', ' @include(if: true) @include(if: false)'])
        : ''
      const inner = isObjectType(named)
        ? depth < 6
          ? ` { ${selection(named, depth + 1)} }`
          : r.chance(0.5)
            ? ''
            : ' { __typename }'
        : r.chance(0.05)
          ? ' { x }'
          : ''
      picked.push(`${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}${directive}${inner}`)
    }
    if (r.chance(0.1)) picked.push('__typename')
    if (r.chance(0.05)) picked.push(r.string(6))
    return picked.join(' ')
  }
  const roots = [ctx.schema.getQueryType(), ctx.schema.getMutationType()].filter((t): t is GraphQLObjectType => !!t)
  const root = r.pick(roots)
  const keyword = root === ctx.schema.getMutationType() ? 'mutation' : r.pick(['query', ''])
  const body = selection(root, 0)
  const head = keyword || defs.length ? `${keyword || 'query'} ${r.chance(0.5) ? `Op${r.int(0, 9)}` : ''}${defs.length ? `(${defs.join(', ')})` : ''}` : ''
  let query = `${head} { ${body} }`
  if (r.chance(0.1)) query += ` fragment F on ${root.name} { ${selection(root, 3)} }`
  if (r.chance(0.05)) query = query.slice(0, r.int(0, query.length))
  if (r.chance(0.03)) query = `{ ${'health { status } '.repeat(r.int(100, 3000))} }`
  if (r.chance(0.03)) query = `{ a: __schema { types { fields { type { fields { type { fields { name } } } } } } } }`
  return { query, variables }
}

function graphqlRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const doc = randomDocument(r, ctx)
  if (r.chance(0.15)) {
    const params = new URLSearchParams({ query: doc.query.slice(0, 3000) })
    if (r.chance(0.5)) params.set('variables', r.chance(0.7) ? JSON.stringify(doc.variables) : r.pick(['{', 'null', '[]', '"x"', '1']))
    if (r.chance(0.2)) params.set('operationName', r.pick(['Op1', '', 'nope']))
    return { kind: 'graphql GET', bytes: serialise({ method: 'GET', target: `/graphql?${params}`, headers: commonHeaders(r, ctx, undefined) }) }
  }
  let payload: unknown = {
    query: doc.query,
    variables: r.chance(0.9) ? doc.variables : r.pick([null, [], 'x', 1]),
    ...(r.chance(0.1) ? { operationName: r.pick(['Op1', 'nope', null, 5]) } : {}),
  }
  if (r.chance(0.05)) payload = [payload, payload]
  if (r.chance(0.05)) payload = { query: r.pick([null, 1, [], {}, '']) }
  if (r.chance(0.03)) payload = { query: '{ health { status } }', extensions: r.pick([null, 'x', { persistedQuery: { version: 1, sha256Hash: 'abc' } }]) }
  let body = r.chance(0.9) ? Buffer.from(JSON.stringify(payload)) : (randomBody(r, ctx) ?? Buffer.alloc(0))
  if (r.chance(0.03)) {
    // Variables nested far deeper than any schema allows.
    const depth = r.pick([1000, 50_000])
    body = Buffer.from(
      `{"query":"query Q($v: ${r.pick(['JSON', 'String', '[[String]]'])}) { health { status } }","variables":{"v":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    )
  }
  const headers = commonHeaders(r, ctx, body)
  return {
    kind: 'graphql POST',
    bytes: serialise({ method: 'POST', target: `/graphql${r.chance(0.1) ? randomQuery(r) : ''}`, headers, body, chunked: r.chance(0.1) }),
  }
}

/** Requests a well-behaved client library would refuse to send. */
function malformedRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const route = r.pick(ctx.routes).path.replace(/:[A-Za-z_]+/g, () => randomUUID())
  const json = Buffer.from('{"client_id":"x","client_secret":"y"}')
  const choice = r.int(0, 21)
  const raw = (text: string | Buffer, mayGoUnanswered = false): FuzzRequest => ({
    kind: `malformed #${choice}`,
    bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1'),
    mayGoUnanswered,
  })
  switch (choice) {
    case 0:
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Length: ${json.length}\r\nContent-Length: ${json.length + 1}\r\n\r\n${json}`)
    case 1:
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`)
    case 2:
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`)
    case 3:
      return raw(`GET ${route} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(r.int(17_000, 70_000))}\r\n\r\n`)
    case 4:
      return raw(`${r.pick(['GETT', 'G E T', 'get', '\u0000GET', 'CONNECTX', 'PRI'])} ${route} HTTP/1.1\r\nHost: x\r\n\r\n`)
    case 5:
      return raw(`GET ${route} ${r.pick(['HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'HTTPS/1.1', 'HTTP/1.1.1', ''])}\r\nHost: x\r\n\r\n`)
    case 6:
      return raw(`GET ${route}${r.pick([' extra', '\u0000', '\u007f', '#frag', '\t'])} HTTP/1.1\r\nHost: x\r\n\r\n`)
    case 7:
      return raw(`GET ${route} HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`)
    case 8:
      return raw(`GET ${route} HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n  b\r\n\r\n`)
    case 9:
      return raw(`GET ${route} HTTP/1.1\nHost: x\n\n`)
    case 10:
      return raw(`GET ${route} HTTP/1.1\r\nHost: x\r\nX-Ctl: a\u0001b\u0000c\r\n\r\n`)
    case 11:
      return raw(`GET ${route} HTTP/1.1\r\n\r\n`)
    case 12:
      return raw(`GET ${route} HTTP/1.0\r\n\r\n`)
    case 13:
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`)
    case 14:
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n`)
    case 15:
      // The body stops short of its Content-Length and the client goes away.
      return raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"client_id":`, true)
    case 16: {
      // Two requests on one connection (pipelining), the second one malformed.
      const first = serialise({ method: 'GET', target: '/healthz', headers: [['Host', 'x']] })
      return raw(Buffer.concat([first, Buffer.from(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{{{`)]))
    }
    case 17:
      return raw(
        `${r.pick(['GET', 'POST'])} /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n3\r\n1}\r\n0\r\nX-Trailer: y\r\n\r\n`,
      )
    case 18:
      return raw(`OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n`)
    case 19:
      return raw(`GET http://other.example${route} HTTP/1.1\r\nHost: x\r\n\r\n`)
    case 20: {
      const headers = Array.from({ length: r.int(100, 3000) }, (_, i) => `X-H${i}: ${i}`).join('\r\n')
      return raw(`GET ${route} HTTP/1.1\r\nHost: x\r\n${headers}\r\n\r\n`)
    }
    default:
      return raw(Buffer.concat([Buffer.from(`POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n`), r.bytes(64)]))
  }
}

// Just under the 1 MiB body limit once the rest of a JSON body is around it.
const NEAR_LIMIT = 1024 * 1024 - 600
const BODY_FIELDS = ['client_id', 'client_secret', 'refresh_token', 'client_order_id', 'symbol', 'side', 'type', 'quantity', 'price', 'username', 'email']

/** One megabyte where a few bytes belong: every body field, header, query value and nesting level. */
function longInputRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const huge = (n = NEAR_LIMIT) => r.pick(['1', '9', 'a', '.', ' ']).repeat(n - 1) + r.pick(['x', '1', '.', '"', '\\'])
  const route = r.pick(ctx.routes.filter((route) => route.method === 'POST'))
  const headers = commonHeaders(r, ctx, Buffer.alloc(1))
  const choice = r.int(0, 10)
  const kind = `long input #${choice}`
  // A stranger's token, or none (docs/operations.md, "Abuse limits": nothing real before the caller is known).
  const stranger = () =>
    r.chance(0.5) ? [...headers, ['Authorization', r.pick(['Bearer not-a-token', 'Bearer a.b.c', 'Bearer x'])] as [string, string]] : headers
  const comment = () => (r.chance(0.5) ? `# ${r.string(8)}\n` : '')
  switch (choice) {
    case 0: {
      // A megabyte in one field of a real body, for every route that takes one.
      const body = Buffer.from(JSON.stringify({ ...(randomJson(r, ctx) as object), [r.pick(BODY_FIELDS)]: huge() }).slice(0, NEAR_LIMIT + 500))
      return { kind, bytes: serialise({ method: 'POST', target: route.path.replace(/:[A-Za-z_]+/g, () => randomUUID()), headers, body }) }
    }
    case 1: {
      // A megabyte ending in a byte that is not UTF-8.
      const body = Buffer.from(`{"${r.pick(BODY_FIELDS)}":"${'a'.repeat(NEAR_LIMIT)}"}`)
      body[body.length - r.int(1, 3)] = r.pick([0xff, 0xc3, 0xe2, 0xf0])
      return { kind, bytes: serialise({ method: 'POST', target: route.path.replace(/:[A-Za-z_]+/g, () => randomUUID()), headers, body }) }
    }
    case 2: {
      // A megabyte Decimal, as a literal or a variable.
      const literal = r.chance(0.5)
      const query = literal
        ? `mutation { createOrder(input: { symbol: "USD-IRR", side: buy, type: limit, quantity: "${huge()}", price: "1" }) { order { uid } } } # ${r.string(8)}`
        : 'mutation($q: Decimal!) { createOrder(input: { symbol: "USD-IRR", side: buy, type: limit, quantity: $q, price: "1" }) { order { uid } } }'
      const body = Buffer.from(JSON.stringify(literal ? { query } : { query, variables: { q: huge() } }))
      return { kind, bytes: serialise({ method: 'POST', target: '/graphql', headers, body }) }
    }
    case 3: {
      // A megabyte in a GraphQL String or ID argument.
      const query = r.pick([
        'query($s: String) { orders(filter: { symbol: $s }) { total } }',
        'query($s: ID!) { order(uid: $s) { uid } }',
        'query($s: String!) { symbol(symbol: $s) { symbol } }',
        'query($s: String) { users(orderBy: $s) { total } }',
      ])
      const body = Buffer.from(JSON.stringify({ query, variables: { s: huge() } }))
      return { kind, bytes: serialise({ method: 'POST', target: '/graphql', headers, body }) }
    }
    case 4:
      // Deep nesting that fills the body limit.
      return {
        kind,
        bytes: serialise({
          method: 'POST',
          target: r.pick([route.path, '/graphql']),
          headers,
          body: Buffer.from(`${'['.repeat(NEAR_LIMIT / 2)}${']'.repeat(NEAR_LIMIT / 2)}`),
        }),
      }
    case 5:
      // A megabyte of header value (Node's parser refuses it at 16 KiB with 431).
      return {
        kind,
        bytes: serialise({
          method: 'GET',
          target: r.pick(ctx.routes).path,
          headers: [...headers, [r.pick(['Authorization', 'X-Request-Id', 'X-Forwarded-For', 'Content-Type', 'Accept']), huge()]],
        }),
      }
    case 6:
      // A megabyte of query value.
      return {
        kind,
        bytes: serialise({
          method: 'GET',
          target: `${r.pick(ctx.routes.filter((route) => route.method === 'GET')).path}?${r.pick(['symbol', 'order_by', 'username', 'created_at_from', 'limit'])}=${huge()}`,
          headers,
        }),
      }
    case 7: {
      // 999 unknown 900-character keys in an input object variable (graphql-js printed the whole value in each error).
      const [query, name] = r.pick([
        ['query($f: OrderFilter) { orders(filter: $f) { total } }', 'f'],
        ['mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }', 'input'],
      ] as const)
      const value: Record<string, string> = {}
      for (let i = 0; i < 999; i++) value[`k${i}${r.string(4)}`.padEnd(900, 'x')] = 'v'
      return {
        kind,
        bytes: serialise({
          method: 'POST',
          target: '/graphql',
          headers: stranger(),
          body: Buffer.from(JSON.stringify({ query, variables: { [name]: value } })),
        }),
      }
    }
    case 8: {
      // Repeated overlapping fields (graphql-js compares each two), within the token limit.
      const field = r.pick(['symbols{items{symbol}}', 'symbols { total }', 'viewer { uid }', '__typename'])
      const query = `${comment()}{ ${Array.from({ length: r.int(100, 1200) }, () => field).join(' ')} }`
      return { kind, bytes: serialise({ method: 'POST', target: '/graphql', headers: stranger(), body: Buffer.from(JSON.stringify({ query })) }) }
    }
    case 9: {
      // Introspection under aliases.
      const selection = r.pick([
        '__schema { types { name fields { name type { name fields { name } } } } }',
        '__schema { types { name description fields { name description args { name type { name } } } } }',
        '__type(name: "Order") { fields { name type { name fields { name type { name } } } } }',
      ])
      const query = `${comment()}{ ${Array.from({ length: r.int(2, 30) }, (_, i) => `a${i}: ${selection}`).join(' ')} }`
      return { kind, bytes: serialise({ method: 'POST', target: '/graphql', headers: stranger(), body: Buffer.from(JSON.stringify({ query })) }) }
    }
    default:
      // A megabyte of GraphQL document text.
      return {
        kind,
        bytes: serialise({ method: 'POST', target: '/graphql', headers, body: Buffer.from(JSON.stringify({ query: `{ health { status } } # ${huge()}` })) }),
      }
  }
}

/** The n-th request of a run. */
export function fuzzRequest(r: Random, ctx: FuzzContext): FuzzRequest {
  const x = r.next()
  if (x < 0.03) return longInputRequest(r, ctx)
  if (x < 0.4) return routeRequest(r, ctx)
  if (x < 0.7) return graphqlRequest(r, ctx)
  if (x < 0.8) return unknownRequest(r, ctx)
  return malformedRequest(r, ctx)
}
