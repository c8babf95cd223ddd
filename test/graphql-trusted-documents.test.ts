import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { TRUSTED_ONLY_NOTICE } from '../src/app/graphiql.ts'
import { ConfigError, loadConfig } from '../src/core/config.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// The dashboard example's manifest, as `npm run codegen` writes it (docs/api.md, "Trusted documents").
const MANIFEST = join(import.meta.dirname, '../examples/dashboard/generated/persisted-documents.json')
const manifest = (await import(MANIFEST, { with: { type: 'json' } })).default as Record<string, string>
const idOf = (operation: string) => Object.entries(manifest).find(([, text]) => text.startsWith(operation))![0]
const SYMBOLS_ID = idOf('query DashboardSymbols')
const SYMBOLS_TEXT = manifest[SYMBOLS_ID]!

let open: TestServer
let trustedOnly: TestServer
let bank: TestClient
let admin: TestClient

beforeAll(async () => {
  ;[open, trustedOnly] = await Promise.all([
    startTestServer({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST }),
    startTestServer({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST, GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true' }),
  ])
  await seedDemoMarket(trustedOnly.services.db)
  ;[bank, admin] = await Promise.all([createTestClient(trustedOnly), createTestClient(trustedOnly, { roles: ['admin'], scopes: ['*:*'] })])
})
afterAll(async () => {
  await Promise.all([open?.close(), trustedOnly?.close()])
})

const post = async (server: TestServer, body: unknown, token?: string) => {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string; extensions: Record<string, unknown> }[] } }
}
const variables = { limit: 100, orderBy: { field: 'symbol', direction: 'asc' } }

describe('trusted documents', () => {
  it('serves a document by its documentId, as the same text would be', async () => {
    const byId = await post(trustedOnly, { documentId: SYMBOLS_ID, variables }, bank.token)
    expect(byId.status).toBe(200)
    expect(byId.body.errors).toBeUndefined()
    expect(byId.body.data.symbols.items.map((s: { symbol: string }) => s.symbol)).toContain('USD-IRR')
    expect(await post(trustedOnly, { query: SYMBOLS_TEXT, variables }, admin.token)).toEqual(byId)
  })

  it("serves a document named by Apollo's persistedQuery hash, and by documentId in a GET request", async () => {
    const byId = await post(trustedOnly, { documentId: SYMBOLS_ID, variables }, bank.token)
    const hash = SYMBOLS_ID.slice('sha256:'.length)
    const apollo = await post(trustedOnly, { variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, bank.token)
    expect(apollo).toEqual(byId)
    const get = async (search: Record<string, string>) => {
      const res = await fetch(`${trustedOnly.url}/graphql?${new URLSearchParams(search)}`, {
        headers: { accept: 'application/graphql-response+json', authorization: `Bearer ${bank.token}` },
      })
      return { status: res.status, body: await res.json() }
    }
    expect(await get({ documentId: SYMBOLS_ID, variables: JSON.stringify(variables) })).toEqual(byId)
    expect(await get({ extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }), variables: JSON.stringify(variables) })).toEqual(byId)
    const unknown = await post(trustedOnly, { extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }, bank.token)
    expect([unknown.status, unknown.body.errors![0]!.extensions.code]).toEqual([400, 'PERSISTED_QUERY_NOT_FOUND'])
    // Apollo's retry after PERSISTED_QUERY_NOT_FOUND carries the text too: text, refused while only trusted documents run.
    const retry = await post(trustedOnly, { query: SYMBOLS_TEXT, variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, bank.token)
    expect([retry.status, retry.body.errors![0]!.extensions.code]).toEqual([400, 'PERSISTED_QUERY_ONLY'])
    const open_ = await post(open, { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, bank.token)
    expect(open_).toEqual({ status: 200, body: { data: { __typename: 'Query' } } })
  })

  it('answers an unknown documentId 400 PERSISTED_QUERY_NOT_FOUND', async () => {
    const unknown = `sha256:${'0'.repeat(64)}`
    for (const server of [open, trustedOnly]) {
      expect(await post(server, { documentId: unknown, variables }, bank.token)).toEqual({
        status: 400,
        body: {
          errors: [
            {
              message: `Persisted document not found: ${unknown}`,
              extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', error: 'persisted_query_not_found' },
            },
          ],
        },
      })
    }
  })

  it('refuses a documentId sent with a query, and one that is not text', async () => {
    const both = await post(open, { documentId: SYMBOLS_ID, query: SYMBOLS_TEXT }, bank.token)
    expect([both.status, both.body.errors![0]!.message, both.body.errors![0]!.extensions.code]).toEqual([
      400,
      'Send either query or documentId, not both',
      'BAD_REQUEST',
    ])
    const number = await post(open, { documentId: 7 }, bank.token)
    expect([number.status, number.body.errors![0]!.extensions.code]).toEqual([400, 'BAD_REQUEST'])
  })

  it('takes document text from anyone unless GRAPHQL_TRUSTED_DOCUMENTS_ONLY is set', async () => {
    const client = await createTestClient(open)
    const answer = await post(open, { query: '{ symbols(limit: 1) { total } }' }, client.token)
    expect([answer.status, answer.body.errors]).toEqual([200, undefined])
  })

  it('with GRAPHQL_TRUSTED_DOCUMENTS_ONLY refuses document text 400 PERSISTED_QUERY_ONLY, token or not', async () => {
    const refused = {
      status: 400,
      body: {
        errors: [
          {
            message: 'Only persisted documents are accepted: send a documentId instead of a query',
            extensions: { code: 'PERSISTED_QUERY_ONLY', error: 'persisted_query_only' },
          },
        ],
      },
    }
    expect(await post(trustedOnly, { query: SYMBOLS_TEXT, variables }, bank.token)).toEqual(refused)
    expect(await post(trustedOnly, { query: '{ __typename }' })).toEqual(refused)
    expect(await post(trustedOnly, { query: '{ __typename }' }, 'not-a-jwt')).toEqual(refused)
    // GET carries text too.
    const get = await fetch(`${trustedOnly.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${bank.token}` },
    })
    expect([get.status, await get.json()]).toEqual([400, refused.body])
  })

  it("with GRAPHQL_TRUSTED_DOCUMENTS_ONLY still runs an admin's text (GraphiQL), and never replays it to others", async () => {
    const query = '{ symbols(limit: 2) { total items { symbol } } }'
    for (let i = 0; i < 3; i++) {
      const answer = await post(trustedOnly, { query }, admin.token)
      expect([answer.status, answer.body.errors, answer.body.data.symbols.items.length]).toEqual([200, undefined, 2])
    }
    // The same bytes from a non-admin: refused, not answered from what the admin's request recorded;
    // nor a document of its form (docs/performance.md, "Documents of one form").
    expect((await post(trustedOnly, { query }, bank.token)).body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_ONLY')
    const ofItsForm = '{ symbols(limit: 2) {  total, items { symbol } } } # another text'
    expect((await post(trustedOnly, { query: ofItsForm }, bank.token)).body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_ONLY')
    // And the GraphiQL page itself is served. Read to its end: a response left unread holds its
    // connection, and the server's close waits for it (src/http/listen.ts).
    const page = await fetch(`${trustedOnly.url}/graphql`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('GraphiQL')
  })

  it('says on the GraphiQL page, only in trusted-only mode, that text runs for admins only', async () => {
    // Read to its end: an unread response holds its connection, and the server's close waits for it.
    const page = async (server: TestServer) => (await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } })).text()
    const notice = JSON.stringify(TRUSTED_ONLY_NOTICE).slice(1, -1)
    const [trusted, plain] = await Promise.all([page(trustedOnly), page(open)])
    // Booleans: a failure would print the whole page (megabytes of editor code).
    expect([trusted.includes('GraphiQL'), trusted.includes(notice)]).toEqual([true, true])
    expect(TRUSTED_ONLY_NOTICE).toContain('for admins only; anyone else gets 400\n# PERSISTED_QUERY_ONLY, Login below included.')
    expect([plain.includes('GraphiQL'), plain.includes('TRUSTED DOCUMENTS ONLY')]).toEqual([true, false])
  })

  it('refuses a non-admin text with new variables even after its document was answered by id and for an admin', async () => {
    for (const limit of [3, 4]) {
      expect((await post(trustedOnly, { documentId: SYMBOLS_ID, variables: { ...variables, limit } }, bank.token)).status).toBe(200)
      expect((await post(trustedOnly, { query: SYMBOLS_TEXT, variables: { ...variables, limit } }, admin.token)).status).toBe(200)
    }
    // The catalog's answers for new variables are served before Yoga: never to text from a non-admin.
    for (const limit of [3, 5]) {
      const refused = await post(trustedOnly, { query: SYMBOLS_TEXT, variables: { ...variables, limit } }, bank.token)
      expect([refused.status, refused.body.errors![0]!.extensions.code]).toEqual([400, 'PERSISTED_QUERY_ONLY'])
    }
  })

  it("refuses a non-admin's text of any known query, not only the catalog's, after an admin ran it", async () => {
    const ORDER_ID = idOf('query DashboardOrder(')
    const ORDER_TEXT = manifest[ORDER_ID]!
    const uid = '00000000-0000-4000-8000-000000000000'
    for (let i = 0; i < 3; i++) {
      expect((await post(trustedOnly, { documentId: ORDER_ID, variables: { uid } }, bank.token)).status).toBe(200)
      expect((await post(trustedOnly, { query: ORDER_TEXT, variables: { uid } }, admin.token)).status).toBe(200)
    }
    for (let i = 0; i < 2; i++) {
      const refused = await post(trustedOnly, { query: ORDER_TEXT, variables: { uid } }, bank.token)
      expect([refused.status, refused.body.errors![0]!.extensions.code]).toEqual([400, 'PERSISTED_QUERY_ONLY'])
    }
  })

  it('repeats a documentId answer as often as asked, from the fast path too', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await post(trustedOnly, { documentId: SYMBOLS_ID, variables }, bank.token)
      expect([answer.status, answer.body.errors]).toEqual([200, undefined])
    }
  })
})

describe('GRAPHQL_PERSISTED_DOCUMENTS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'persisted-'))
  const file = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  const sha = (text: string) => createHash('sha256').update(text).digest('hex')

  it('loads a manifest keyed by sha256 hex, with or without the sha256: prefix', () => {
    const path = file('ok.json', JSON.stringify({ [sha('{ a }')]: '{ a }', [`sha256:${sha('{ b }')}`]: '{ b }' }))
    const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path })
    expect([...config.graphqlPersistedDocuments!]).toEqual([
      [`sha256:${sha('{ a }')}`, '{ a }'],
      [`sha256:${sha('{ b }')}`, '{ b }'],
    ])
    expect(config.graphqlTrustedDocumentsOnly).toBe(false)
  })

  it.each([
    ['missing', () => join(dir, 'nope.json'), /^Invalid configuration: GRAPHQL_PERSISTED_DOCUMENTS cannot be read: ENOENT/],
    ['not JSON', () => file('bad.json', '{'), /GRAPHQL_PERSISTED_DOCUMENTS \(.*bad\.json\) is not JSON$/],
    ['an array', () => file('array.json', '[]'), /must be a JSON object of document id → document text$/],
    ['a bad id', () => file('id.json', JSON.stringify({ abc: '{ a }' })), /"abc" is not a sha256 document id/],
    ['a wrong hash', () => file('hash.json', JSON.stringify({ [sha('{ a }')]: '{ b }' })), /is not the sha256 of its document$/],
    ['an empty document', () => file('empty.json', JSON.stringify({ [sha('')]: '' })), /must be non-empty text$/],
  ])('refuses to start with a manifest that is %s', (_name, path, message) => {
    expect(() => loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path() })).toThrow(ConfigError)
    expect(() => loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: path() })).toThrow(message)
  })

  it('refuses GRAPHQL_TRUSTED_DOCUMENTS_ONLY without documents', () => {
    expect(() => loadConfig({ GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true' })).toThrow(
      'Invalid configuration: GRAPHQL_TRUSTED_DOCUMENTS_ONLY needs GRAPHQL_PERSISTED_DOCUMENTS (the documents clients may send)',
    )
  })
})
