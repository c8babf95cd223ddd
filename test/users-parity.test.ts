import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CreateUserDocument, UserDocument, type UserFieldsFragment, UsersDocument, type UsersQueryVariables } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/** The same scenario through both faces: same data, same errors (status, message, `detail`). */
const USERS = '/api/user/v1/users'

let server: TestServer
let bankA: TestClient
let bankB: TestClient
let readOnly: TestClient
beforeAll(async () => {
  server = await startTestServer()
  bankA = await createTestClient(server)
  bankB = await createTestClient(server)
  readOnly = await createTestClient(server, { tenant_id: bankA.tenantId, scopes: ['users:read'] })
})
afterAll(async () => {
  await server?.close()
})

/** A GraphQL User in REST spelling. */
function asRest(u: UserFieldsFragment) {
  return {
    uid: u.uid,
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    is_deleted: u.isDeleted,
    meta_data: u.metaData,
    user_id: u.userId,
    tenant_id: u.tenantId,
    username: u.username,
    email: u.email,
    is_active: u.isActive,
  }
}

interface Outcome {
  status: number
  data?: unknown
  message?: string
  error?: string
  detail?: unknown
}

async function restCreate(token: string, body: unknown): Promise<Outcome> {
  const res = await server.request('POST', USERS, { token, body })
  return res.status < 300 ? { status: res.status, data: res.body } : { status: res.status, ...res.body }
}

const codeOf: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT', 422: 'BAD_USER_INPUT' }

/** A GraphQL result as REST would have rendered it, after checking the error's code matches its status. */
function fromGraphQL(
  res: { status: number; data: any; errors?: { message: string; extensions: Record<string, any> }[] },
  field: string,
  toData: (v: any) => unknown,
): Outcome {
  if (!res.errors) return { status: 200, data: toData(res.data[field]) }
  expect(res.errors).toHaveLength(1)
  const [error] = res.errors
  expect(error!.extensions.code).toBe(codeOf[res.status])
  if (res.status === 422) return { status: 422, detail: error!.extensions.detail }
  return { status: res.status, message: error!.message, error: error!.extensions.error, detail: error!.message }
}

async function graphqlCreate(token: string, input: { username: string; email: string }): Promise<Outcome> {
  const res = await server.graphql(CreateUserDocument, { input }, { token })
  const outcome = fromGraphQL(res, 'createUser', asRest)
  return outcome.status === 200 ? { ...outcome, status: 201 } : outcome
}

async function restList(token: string, query: string): Promise<Outcome> {
  const res = await server.request('GET', `${USERS}${query}`, { token })
  return res.status < 300 ? { status: res.status, data: res.body } : { status: res.status, ...res.body }
}

async function graphqlList(token: string, variables: UsersQueryVariables): Promise<Outcome> {
  const res = await server.graphql(UsersDocument, variables, { token })
  return fromGraphQL(res, 'users', (page) => ({ ...page, items: page.items.map(asRest) }))
}

async function restGet(token: string, uid: string): Promise<Outcome> {
  const res = await server.request('GET', `${USERS}/${encodeURIComponent(uid)}`, { token })
  return res.status < 300 ? { status: res.status, data: res.body } : { status: res.status, ...res.body }
}

async function graphqlGet(token: string, uid: string): Promise<Outcome> {
  return fromGraphQL(await server.graphql(UserDocument, { uid }, { token }), 'user', asRest)
}

describe('REST and GraphQL give the same answers', () => {
  it('creates users the same way, each face seeing what the other created', async () => {
    const viaRest = await restCreate(bankA.token, { username: 'victor', email: ' Victor@Bank-A.EXAMPLE' })
    const viaGraphql = await graphqlCreate(bankA.token, { username: 'wendy', email: ' Wendy@Bank-A.EXAMPLE' })
    expect(viaRest.status).toBe(201)
    expect(viaGraphql.status).toBe(201)
    const shared = ({ uid: _u, created_at: _c, updated_at: _m, username: _n, email: _e, ...rest }: any) => rest
    expect(shared(viaGraphql.data)).toEqual(shared(viaRest.data))
    expect(shared(viaRest.data)).toEqual({ is_deleted: false, meta_data: null, user_id: bankA.clientId, tenant_id: bankA.tenantId, is_active: true })
    expect([(viaRest.data as any).email, (viaGraphql.data as any).email]).toEqual(['Victor@bank-a.example', 'Wendy@bank-a.example'])

    for (const created of [viaRest.data as any, viaGraphql.data as any]) {
      expect(await graphqlGet(bankA.token, created.uid)).toEqual({ status: 200, data: created })
      expect(await restGet(bankA.token, created.uid)).toEqual({ status: 200, data: created })
    }

    const restPage = await restList(bankA.token, '?order_by=-username&limit=1&offset=1')
    const graphqlPage = await graphqlList(bankA.token, { orderBy: { field: 'username', direction: 'desc' }, limit: 1, offset: 1 })
    expect(graphqlPage).toEqual(restPage)
    expect(restPage).toMatchObject({ status: 200, data: { items: [viaRest.data], total: 2, offset: 1, limit: 1 } })

    const from = `${(viaGraphql.data as any).created_at}Z`
    expect(await graphqlList(bankA.token, { filter: { createdAtFrom: from, email: 'WENDY@bank-a.example' } })).toEqual(
      await restList(bankA.token, `?created_at_from=${encodeURIComponent(from)}&email=WENDY%40bank-a.example`),
    )
  })

  it('reports the same validation detail for create', async () => {
    const inputs = [
      { username: 'xy', email: 'xy@bank.example' },
      { username: 'x'.repeat(65), email: 'x@bank.example' },
      { username: 'has space', email: 'x@bank.example' },
      { username: 'yusuf', email: 'not-an-email' },
      { username: '', email: '' },
      { username: 'zoë!', email: 'zoe@@bank.example' },
    ]
    for (const input of inputs) {
      const rest = await restCreate(bankA.token, input)
      expect(rest.status).toBe(422)
      expect(await graphqlCreate(bankA.token, input)).toEqual(rest)
    }
  })

  it('reports the same conflict, ignoring case alike', async () => {
    await restCreate(bankA.token, { username: 'xavier', email: 'x@bank.example' })
    for (const username of ['xavier', 'XAVIER']) {
      const rest = await restCreate(bankA.token, { username, email: 'x2@bank.example' })
      expect(rest.status).toBe(409)
      expect(await graphqlCreate(bankA.token, { username, email: 'x2@bank.example' })).toEqual(rest)
    }
  })

  it('reports the same list validation detail', async () => {
    const cases: [string, UsersQueryVariables][] = [
      ['?limit=101', { limit: 101 }],
      ['?limit=0', { limit: 0 }],
      ['?offset=-5', { offset: -5 }],
      ['?created_at_from=2026-01-01', { filter: { createdAtFrom: '2026-01-01' } }],
      ['?updated_at_to=yesterday', { filter: { updatedAtTo: 'yesterday' } }],
      ['?tenant_id=not-a-uuid', { filter: { tenantId: 'not-a-uuid' } }],
    ]
    for (const [query, variables] of cases) {
      const rest = await restList(bankA.token, query)
      expect(rest.status, query).toBe(422)
      const graphql = await graphqlList(bankA.token, variables)
      // Query-string numbers arrive as text, GraphQL Ints as numbers: only `input` may differ.
      const withoutInput = (o: Outcome) => ({ ...o, detail: (o.detail as any[]).map(({ input: _input, ...rest }) => rest) })
      expect(withoutInput(graphql), query).toEqual(withoutInput(rest))
    }
    // A field no list sorts by: REST's order_by is text (422); GraphQL's is a UserSortField, refused before anything runs.
    expect((await restList(bankA.token, '?order_by=password')).status).toBe(422)
    const unsortable = await server.graphql(UsersDocument, { orderBy: { field: 'password' as never } }, { token: bankA.token })
    expect(unsortable.data).toBeUndefined()
    expect(unsortable.errors![0]!.message).toContain('UserSortField')
  })

  it('denies the same way: missing scope, other tenant, no token', async () => {
    const created = (await restCreate(bankA.token, { username: 'yara', email: 'yara@bank.example' })).data as any

    const restNoScope = await restCreate(readOnly.token, { username: 'zack', email: 'z@bank.example' })
    expect(restNoScope).toEqual({
      status: 403,
      message: 'Access denied: requires users:write',
      error: 'permission_denied',
      detail: 'Access denied: requires users:write',
    })
    expect(await graphqlCreate(readOnly.token, { username: 'zack', email: 'z@bank.example' })).toEqual(restNoScope)

    const restOther = await restGet(bankB.token, created.uid)
    expect(restOther).toEqual({
      status: 403,
      message: 'Token belongs to different client',
      error: 'permission_denied',
      detail: 'Token belongs to different client',
    })
    expect(await graphqlGet(bankB.token, created.uid)).toEqual(restOther)

    const restOtherList = await restList(bankB.token, `?tenant_id=${bankA.tenantId}`)
    expect(restOtherList.status).toBe(403)
    expect(await graphqlList(bankB.token, { filter: { tenantId: bankA.tenantId } })).toEqual(restOtherList)

    const restAnon = await restList('', '')
    expect(restAnon).toEqual({ status: 401, message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' })
    expect(await graphqlList('', {})).toEqual(restAnon)
  })

  it('answers an unknown or malformed uid with 404 in REST and null in GraphQL, as every single-record query does', async () => {
    for (const uid of [randomUUID(), 'nope']) {
      const rest = await restGet(bankA.token, uid)
      expect(rest).toEqual({ status: 404, message: 'User not found', error: 'not_found', detail: 'User not found' })
      const graphql = await server.graphql(UserDocument, { uid }, { token: bankA.token })
      expect(graphql.status).toBe(200)
      expect(graphql.errors).toBeUndefined()
      expect(graphql.data).toEqual({ user: null })
    }
  })

  it("keeps two banks' lists apart on both faces", async () => {
    expect((await graphqlCreate(bankB.token, { username: 'bonly', email: 'b@bank-b.example' })).status).toBe(201)
    expect((await restCreate(bankA.token, { username: 'aonly', email: 'a@bank-a.example' })).status).toBe(201)
    for (const [bank, other] of [
      [bankA, bankB],
      [bankB, bankA],
    ] as const) {
      const rest = await restList(bank.token, '')
      expect(await graphqlList(bank.token, {})).toEqual(rest)
      const tenants = new Set((rest.data as any).items.map((u: any) => u.tenant_id))
      expect(tenants).toEqual(new Set([bank.tenantId]))
      expect(tenants.has(other.tenantId)).toBe(false)
    }
  })
})
