import { request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'

import { getIntrospectionQuery } from 'graphql'
import { createSchema } from 'graphql-yoga'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { RequestContext } from '../src/core/context.ts'
import { GRAPHQL_LIMITS } from '../src/graphql/limits.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// A schema that nests without end, to build documents of any depth, breadth and cost.
const nodes = createSchema<RequestContext>({
  typeDefs: /* GraphQL */ `
    type Query {
      node: Node!
      nodes(limit: Int): [Node!]!
      explode: String!
    }
    type Node {
      id: ID!
      child: Node!
      children(limit: Int): [Node!]!
    }
    type Mutation {
      touch: Int!
    }
  `,
  resolvers: {
    Query: {
      node: () => ({ id: '1' }),
      nodes: (_root, args: { limit?: number }) => Array.from({ length: Math.min(args.limit ?? 3, 3) }, (_, i) => ({ id: String(i) })),
      explode: () => {
        throw new Error('secret internals: SELECT * FROM clients')
      },
    },
    Node: {
      child: (node: { id: string }) => ({ id: `${node.id}.0` }),
      children: (node: { id: string }, args: { limit?: number }) => Array.from({ length: Math.min(args.limit ?? 2, 2) }, (_, i) => ({ id: `${node.id}.${i}` })),
    },
    Mutation: { touch: () => 1 },
  },
})

const nested = (depth: number) => `${'{ node '.repeat(1)}${'{ child '.repeat(depth - 2)}{ id }${' }'.repeat(depth - 2)} }`

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({}, undefined, { app: { schema: nodes } })
})
afterAll(async () => {
  await server?.close()
})

async function rejected(query: string, variables?: Record<string, unknown>) {
  const res = await server.graphql(query, variables)
  expect(res.status).toBe(400)
  expect(res.data).toBeUndefined()
  return res.errors!.map((e) => ({ message: e.message, code: e.extensions.code }))
}

describe('GraphQL operation limits', () => {
  it(`allows a depth of ${GRAPHQL_LIMITS.maxDepth} and refuses more`, async () => {
    const ok = await server.graphql(nested(GRAPHQL_LIMITS.maxDepth))
    expect(ok.status).toBe(200)
    expect(ok.errors).toBeUndefined()
    expect(await rejected(nested(GRAPHQL_LIMITS.maxDepth + 1))).toEqual([
      { message: 'The operation has a depth of 11, over the limit of 10', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
    // Fragments do not hide depth.
    const viaFragments = `query Deep { node { ...A } } fragment A on Node { child { child { child { ...B } } } } fragment B on Node { child { child { child { child { child { child { id } } } } } } }`
    expect(await rejected(viaFragments)).toEqual([{ message: 'Operation Deep has a depth of 11, over the limit of 10', code: 'GRAPHQL_VALIDATION_FAILED' }])
  })

  it(`allows ${GRAPHQL_LIMITS.maxAliases} aliases and refuses more, counting fragments as executed`, async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: id`).join(' ')
    expect((await server.graphql(`{ node { ${aliases(30)} } }`)).status).toBe(200)
    expect(await rejected(`{ node { ${aliases(31)} } }`)).toEqual([
      { message: 'The operation has aliases: 31, over the limit of 30', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
    expect(await rejected(`{ x: node { ...F } y: node { ...F } } fragment F on Node { ${aliases(15)} }`)).toEqual([
      { message: 'The operation has aliases: 32, over the limit of 30', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
  })

  it(`refuses more than ${GRAPHQL_LIMITS.maxDirectives} directives`, async () => {
    const directives = (n: number) => 'id @include(if: true) '.repeat(n)
    expect((await server.graphql(`{ node { ${directives(50)} } }`)).status).toBe(200)
    expect(await rejected(`{ node { ${directives(51)} } }`)).toEqual([
      { message: 'The operation has directives: 51, over the limit of 50', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
  })

  it(`refuses a cost over ${GRAPHQL_LIMITS.maxCost}, lists multiplying by their limit`, async () => {
    // 1 + 100 × (1 + 100 × 1) = 10,101
    expect((await server.graphql('{ nodes(limit: 100) { children(limit: 100) { id } } }')).status).toBe(200)
    // 1 + 100 × (1 + 100 × (1 + 2 × 1)) = 30,101
    expect(await rejected('{ nodes(limit: 100) { children(limit: 100) { children(limit: 2) { id } } } }')).toEqual([
      { message: 'The operation has a cost of 30101, over the limit of 20000', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
    // A variable or an absent limit counts as the maximum page, 100.
    expect(await rejected('query Q($n: Int) { nodes(limit: $n) { children { children(limit: 2) { id } } } }', { n: 1 })).toEqual([
      { message: 'Operation Q has a cost of 30101, over the limit of 20000', code: 'GRAPHQL_VALIDATION_FAILED' },
    ])
  })

  it('answers fragment cycles with the standard error, promptly', async () => {
    const started = Date.now()
    const errors = await rejected('{ node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A } }')
    expect(errors[0]!.message).toMatch(/Cannot spread fragment "A" within itself/)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it(`stops parsing documents over ${GRAPHQL_LIMITS.maxTokens} tokens`, async () => {
    const started = Date.now()
    const errors = await rejected(`{ node { ${'id '.repeat(6000)} } }`)
    expect(errors).toEqual([{ message: 'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.', code: 'GRAPHQL_PARSE_FAILED' }])
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('masks unexpected errors', async () => {
    const res = await server.graphql('{ explode }')
    expect(res.status).toBe(500)
    expect(res.errors).toEqual([
      {
        message: 'Internal server error',
        locations: [{ line: 1, column: 3 }],
        path: ['explode'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', error: 'internal_error' },
      },
    ])
    expect(JSON.stringify(res.errors)).not.toContain('SELECT')
  })
})

describe('GraphQL requests', () => {
  const TOO_LARGE = { message: 'Request body is too large', error: 'payload_too_large', detail: 'Request body is too large' }

  it('answers bodies over 1 MiB with 413 and the REST error body, with or without Content-Length', async () => {
    const big = JSON.stringify({ query: `{ node { id } }`, variables: { pad: 'x'.repeat(1024 * 1024) } })
    const sized = await server.request('POST', '/graphql', { rawBody: big, headers: { 'content-type': 'application/json' } })
    expect(sized.status).toBe(413)
    expect(sized.body).toEqual(TOO_LARGE)

    // Chunked: no Content-Length, the limit applies while reading.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      Readable.from(
        (function* () {
          for (let i = 0; i < big.length; i += 64 * 1024) yield big.slice(i, i + 64 * 1024)
        })(),
      ).pipe(req)
    })
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body)).toEqual(TOO_LARGE)

    // Just under the limit is served.
    const fits = JSON.stringify({ query: '{ node { id } }', variables: { pad: 'x'.repeat(1024 * 1024 - 100) } })
    expect((await server.request('POST', '/graphql', { rawBody: fits, headers: { 'content-type': 'application/json' } })).status).toBe(200)
  })

  it.each([
    ['a batch', 'POST', 'application/json', '[{"query":"{ node { id } }"}]', 400],
    ['a JSON array of nothing', 'POST', 'application/json', '[]', 400],
    ['JSON null', 'POST', 'application/json', 'null', 400],
    ['a JSON string', 'POST', 'application/json', '"{ node { id } }"', 400],
    ['broken JSON', 'POST', 'application/json', '{"query": ', 400],
    ['a query that is not a string', 'POST', 'application/json', '{"query": {"a": 1}}', 400],
    ['variables that are not an object', 'POST', 'application/json', '{"query": "{ node { id } }", "variables": [1]}', 400],
    ['no query', 'POST', 'application/json', '{}', 400],
    ['text/plain', 'POST', 'text/plain', '{ node { id } }', 415],
    ['no content type', 'POST', undefined, '{"query":"{ node { id } }"}', 415],
    ['broken multipart', 'POST', 'multipart/form-data; boundary=x', '--x\r\nnonsense', 400],
    ['a form without query', 'POST', 'application/x-www-form-urlencoded', 'a=%ZZ&b', 400],
    ['application/graphql garbage', 'POST', 'application/graphql', '}}}{{{', 400],
  ])('answers %s without a 5xx', async (_name, method, contentType, body, status) => {
    const headers: Record<string, string> = { accept: 'application/graphql-response+json' }
    if (contentType) headers['content-type'] = contentType
    const res = await server.request(method, '/graphql', { rawBody: body, headers })
    expect(res.status).toBe(status)
  })

  it('refuses a mutation over GET with 405, and answers broken GET parameters with 400', async () => {
    const mutation = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { touch }')}`, { headers: { accept: 'application/json' } })
    expect(mutation.status).toBe(405)
    expect(mutation.headers.get('allow')).toBe('POST')
    const badVariables = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ node { id } }')}&variables=%7Bnope`, {
      headers: { accept: 'application/json' },
    })
    expect(badVariables.status).toBe(400)
    const query = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ node { id } }')}`, { headers: { accept: 'application/json' } })
    expect(query.status).toBe(200)
    expect(await query.json()).toEqual({ data: { node: { id: '1' } } })
  })
})

describe('introspection and GraphiQL', () => {
  it("serves GraphiQL's introspection query by default", async () => {
    const res = await server.graphql(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    )
    expect(res.status).toBe(200)
    expect(res.errors).toBeUndefined()
    expect((res.data as { __schema: { queryType: { name: string } } }).__schema.queryType.name).toBe('Query')
  })

  it('turns introspection and GraphiQL off when configured', async () => {
    const closed = await startTestServer({ GRAPHQL_INTROSPECTION: 'false', GRAPHIQL: 'false' })
    try {
      for (const query of ['{ __schema { queryType { name } } }', '{ health { status } __type(name: "Query") { name } }']) {
        const res = await closed.graphql(query)
        expect(res.status).toBe(400)
        expect(res.errors?.[0]?.message).toMatch(/^GraphQL introspection has been disabled, but the requested query contained the field "__(schema|type)"\.$/)
      }
      const typename = await closed.graphql('{ __typename health { status } }')
      expect(typename.status).toBe(200)
      expect(typename.data).toEqual({ __typename: 'Query', health: { status: 'ok' } })
      const page = await fetch(`${closed.url}/graphql`, { headers: { accept: 'text/html' } })
      expect(page.status).toBeLessThan(500)
      expect(await page.text()).not.toContain('GraphiQL')
    } finally {
      await closed.close()
    }
  })
})
