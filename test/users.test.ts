import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CreateUserDocument, UserDocument, UsersDocument } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const USERS = '/api/user/v1/users'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const HEADS = {
  id: { en: 'ID' },
  revision_id: { en: 'Revision ID' },
  uid: { en: 'UID' },
  created_at: { en: 'Created At' },
  updated_at: { en: 'Updated At' },
  is_deleted: { en: 'Is Deleted' },
  meta_data: { en: 'Meta Data' },
  user_id: { en: 'User ID' },
  tenant_id: { en: 'Tenant ID' },
  username: { en: 'Username' },
  email: { en: 'Email' },
  is_active: { en: 'Is Active' },
}

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const bank = (scopes?: string[]) => createTestClient(server, scopes ? { scopes } : {})

async function create(client: TestClient, body: unknown) {
  const res = await server.request('POST', USERS, { token: client.token, body })
  expect(res.status, res.text).toBe(201)
  return res.body
}

const forbiddenBody = (message: string) => ({ message, error: 'permission_denied', detail: message })
const notFoundBody = { message: 'User not found', error: 'not_found', detail: 'User not found' }

describe('POST /api/user/v1/users', () => {
  it('creates a user in the caller tenant and answers 201 with the record', async () => {
    const a = await bank()
    const res = await server.request('POST', USERS, { token: a.token, body: { username: 'alice', email: 'alice@bank-a.example' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: res.body.created_at,
      is_deleted: false,
      meta_data: null,
      user_id: a.clientId,
      tenant_id: a.tenantId,
      username: 'alice',
      email: 'alice@bank-a.example',
      is_active: true,
    })
    expect(Object.keys(res.body)).toEqual([
      'uid',
      'created_at',
      'updated_at',
      'is_deleted',
      'meta_data',
      'user_id',
      'tenant_id',
      'username',
      'email',
      'is_active',
    ])
    const fetched = await server.request('GET', `${USERS}/${res.body.uid}`, { token: a.token })
    expect(fetched.status).toBe(200)
    expect(fetched.body).toEqual(res.body)
  })

  it('trims the email and lower-cases its domain, keeping the local part as given', async () => {
    const a = await bank()
    const user = await create(a, { username: 'Bob.Smith', email: '  Bob.Smith@Bank-A.EXAMPLE \n' })
    expect(user.email).toBe('Bob.Smith@bank-a.example')
    expect(user.username).toBe('Bob.Smith')
  })

  it('accepts usernames of exactly 3 and 64 allowed characters', async () => {
    const a = await bank()
    expect((await create(a, { username: 'a_-', email: 'x@y.example' })).username).toBe('a_-')
    const long = 'A1._-'.repeat(12) + 'abcd'
    expect(long).toHaveLength(64)
    expect((await create(a, { username: long, email: 'x@y.example' })).username).toBe(long)
  })

  it('ignores unknown body fields, so a caller cannot pick another tenant, uid, creator or state', async () => {
    const a = await bank()
    const b = await bank()
    const uid = randomUUID()
    const user = await create(a, {
      username: 'carol',
      email: 'carol@bank-a.example',
      tenant_id: b.tenantId,
      uid,
      user_id: b.clientId,
      is_active: false,
      is_deleted: true,
      meta_data: { x: 1 },
    })
    expect(user).toMatchObject({ tenant_id: a.tenantId, user_id: a.clientId, is_active: true, is_deleted: false, meta_data: null })
    expect(user.uid).not.toBe(uid)
    const listB = await server.request('GET', USERS, { token: b.token })
    expect(listB.body.total).toBe(0)
  })

  describe('validation (422)', () => {
    const cases: [string, unknown, unknown[]][] = [
      [
        'both fields missing, in field order',
        {},
        [
          { type: 'missing', loc: ['body', 'username'], msg: 'Field required' },
          { type: 'missing', loc: ['body', 'email'], msg: 'Field required' },
        ],
      ],
      ['username missing', { email: 'a@b.example' }, [{ type: 'missing', loc: ['body', 'username'], msg: 'Field required' }]],
      ['email missing', { username: 'dave' }, [{ type: 'missing', loc: ['body', 'email'], msg: 'Field required' }]],
      [
        'username too short',
        { username: 'ab', email: 'a@b.example' },
        [
          {
            type: 'value_error.any_str.min_length',
            loc: ['body', 'username'],
            msg: 'ensure this value has at least 3 characters',
            input: 'ab',
            ctx: { limit_value: 3 },
          },
        ],
      ],
      [
        'username too long',
        { username: 'x'.repeat(65), email: 'a@b.example' },
        [
          {
            type: 'value_error.any_str.max_length',
            loc: ['body', 'username'],
            msg: 'ensure this value has at most 64 characters',
            input: 'x'.repeat(65),
            ctx: { limit_value: 64 },
          },
        ],
      ],
      [
        'username with a disallowed character',
        { username: 'bad name', email: 'a@b.example' },
        [
          {
            type: 'value_error.str.regex',
            loc: ['body', 'username'],
            msg: 'string does not match regex "^[A-Za-z0-9_.-]+$"',
            input: 'bad name',
            ctx: { pattern: '^[A-Za-z0-9_.-]+$' },
          },
        ],
      ],
      [
        'non-ASCII username',
        { username: 'ålice', email: 'a@b.example' },
        [
          {
            type: 'value_error.str.regex',
            loc: ['body', 'username'],
            msg: 'string does not match regex "^[A-Za-z0-9_.-]+$"',
            input: 'ålice',
            ctx: { pattern: '^[A-Za-z0-9_.-]+$' },
          },
        ],
      ],
      [
        'a too short and malformed username reports its length only',
        { username: 'a!', email: 'a@b.example' },
        [
          {
            type: 'value_error.any_str.min_length',
            loc: ['body', 'username'],
            msg: 'ensure this value has at least 3 characters',
            input: 'a!',
            ctx: { limit_value: 3 },
          },
        ],
      ],
      [
        'invalid email',
        { username: 'erin', email: 'not-an-email' },
        [{ type: 'value_error.email', loc: ['body', 'email'], msg: 'value is not a valid email address', input: 'not-an-email' }],
      ],
      [
        'email without a domain dot',
        { username: 'erin', email: 'erin@localhost' },
        [{ type: 'value_error.email', loc: ['body', 'email'], msg: 'value is not a valid email address', input: 'erin@localhost' }],
      ],
      [
        'email longer than 254 characters',
        { username: 'erin', email: `${'e'.repeat(64)}@${'d'.repeat(190)}.example` },
        [
          {
            type: 'value_error.any_str.max_length',
            loc: ['body', 'email'],
            msg: 'ensure this value has at most 254 characters',
            input: `${'e'.repeat(64)}@${'d'.repeat(190)}.example`,
            ctx: { limit_value: 254 },
          },
        ],
      ],
      [
        'both invalid, in field order',
        { username: 'x', email: 'nope' },
        [
          {
            type: 'value_error.any_str.min_length',
            loc: ['body', 'username'],
            msg: 'ensure this value has at least 3 characters',
            input: 'x',
            ctx: { limit_value: 3 },
          },
          { type: 'value_error.email', loc: ['body', 'email'], msg: 'value is not a valid email address', input: 'nope' },
        ],
      ],
      [
        'non-string types',
        { username: 12345, email: ['a@b.example'] },
        [
          { type: 'type_error.str', loc: ['body', 'username'], msg: 'str type expected', input: 12345 },
          { type: 'type_error.str', loc: ['body', 'email'], msg: 'str type expected', input: ['a@b.example'] },
        ],
      ],
      [
        'null fields',
        { username: null, email: null },
        [
          { type: 'type_error.none.not_allowed', loc: ['body', 'username'], msg: 'none is not an allowed value', input: null },
          { type: 'type_error.none.not_allowed', loc: ['body', 'email'], msg: 'none is not an allowed value', input: null },
        ],
      ],
      ['a JSON array instead of an object', [1], [{ type: 'type_error.dict', loc: ['body'], msg: 'value is not a valid dict', input: [1] }]],
    ]

    it.each(cases)('%s', async (_name, body, detail) => {
      const a = await bank()
      const res = await server.request('POST', USERS, { token: a.token, body })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ detail })
      const list = await server.request('GET', USERS, { token: a.token })
      expect(list.body.total).toBe(0)
    })

    it('rejects an empty body as a missing body', async () => {
      const a = await bank()
      const res = await server.request('POST', USERS, { token: a.token })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required' }] })
    })

    it('rejects malformed JSON with json_invalid and its position', async () => {
      const a = await bank()
      const res = await server.request('POST', USERS, {
        token: a.token,
        rawBody: '{"username": "frank", "email": }',
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        detail: [{ type: 'json_invalid', loc: ['body', 31], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
      })
    })
  })

  describe('uniqueness per tenant (409)', () => {
    it('refuses a username already used in the tenant, ignoring case', async () => {
      const a = await bank()
      await create(a, { username: 'grace', email: 'grace@bank-a.example' })
      for (const username of ['grace', 'GRACE', 'Grace']) {
        const res = await server.request('POST', USERS, { token: a.token, body: { username, email: 'other@bank-a.example' } })
        expect(res.status).toBe(409)
        const message = `Username "${username}" is already in use in this tenant`
        expect(res.body).toEqual({ message, error: 'conflict', detail: message })
      }
      const list = await server.request('GET', `${USERS}?username=grace`, { token: a.token })
      expect(list.body.total).toBe(1)
      expect(list.body.items[0].email).toBe('grace@bank-a.example')
    })

    it('lets two tenants use the same username, and one email for several users', async () => {
      const a = await bank()
      const b = await bank()
      const inA = await create(a, { username: 'heidi', email: 'shared@desk.example' })
      const inB = await create(b, { username: 'heidi', email: 'shared@desk.example' })
      expect(inA.tenant_id).toBe(a.tenantId)
      expect(inB.tenant_id).toBe(b.tenantId)
      await create(a, { username: 'heidi2', email: 'shared@desk.example' })
    })
  })
})

describe('authentication and scopes', () => {
  it('answers 401 without a token on every user endpoint', async () => {
    const body = { message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' }
    for (const [method, path] of [
      ['GET', USERS],
      ['POST', USERS],
      ['GET', `${USERS}/${randomUUID()}`],
    ] as const) {
      const res = await server.request(method, path, method === 'POST' ? { body: { username: 'ivan', email: 'i@b.example' } } : {})
      expect(res.status).toBe(401)
      expect(res.body).toEqual(body)
    }
  })

  it('needs users:write to create and users:read to read', async () => {
    const readOnly = await bank(['users:read'])
    const created = await server.request('POST', USERS, { token: readOnly.token, body: { username: 'judy', email: 'j@b.example' } })
    expect(created.status).toBe(403)
    expect(created.body).toEqual(forbiddenBody('Access denied: requires users:write'))

    const writer = await bank(['users:write'])
    const user = await create(writer, { username: 'judy', email: 'j@b.example' })
    const list = await server.request('GET', USERS, { token: writer.token })
    expect(list.status).toBe(403)
    expect(list.body).toEqual(forbiddenBody('Access denied: requires users:read'))
    const one = await server.request('GET', `${USERS}/${user.uid}`, { token: writer.token })
    expect(one.status).toBe(403)
    expect(one.body).toEqual(forbiddenBody('Access denied: requires users:read'))
  })

  it('checks the scope before validating the body', async () => {
    const readOnly = await bank(['users:read'])
    const res = await server.request('POST', USERS, { token: readOnly.token, body: {} })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbiddenBody('Access denied: requires users:write'))
  })

  it('honours wildcard scopes', async () => {
    const wild = await bank(['users:*'])
    const user = await create(wild, { username: 'kim', email: 'k@b.example' })
    const res = await server.request('GET', `${USERS}/${user.uid}`, { token: wild.token })
    expect(res.status).toBe(200)
  })
})

describe('GET /api/user/v1/users/:uid', () => {
  it('answers 404 not_found for an unknown or malformed uid, never 500', async () => {
    const a = await bank()
    for (const uid of [randomUUID(), 'not-a-uuid', '1', "x' or '1'='1", '%E2%82%AC', '00000000-0000-0000-0000-00000000000g']) {
      const res = await server.request('GET', `${USERS}/${uid}`, { token: a.token })
      expect(res.status, uid).toBe(404)
      expect(res.body).toEqual(notFoundBody)
    }
  })

  it("answers 403 for another tenant's user, and 200 to an admin", async () => {
    const a = await bank()
    const b = await bank()
    const admin = await createTestClient(server, { roles: ['admin'] })
    const user = await create(a, { username: 'leo', email: 'leo@bank-a.example' })
    const denied = await server.request('GET', `${USERS}/${user.uid}`, { token: b.token })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual(forbiddenBody('Token belongs to different client'))
    const asAdmin = await server.request('GET', `${USERS}/${user.uid}`, { token: admin.token })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body).toEqual(user)
  })

  it('accepts an upper-case uid', async () => {
    const a = await bank()
    const user = await create(a, { username: 'mia', email: 'mia@bank-a.example' })
    const res = await server.request('GET', `${USERS}/${user.uid.toUpperCase()}`, { token: a.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(user)
  })
})

describe('GET /api/user/v1/users', () => {
  let a: TestClient
  let b: TestClient
  let admin: TestClient
  let usersA: any[]
  let userB: any
  let named: Record<string, any>
  beforeAll(async () => {
    a = await bank()
    b = await bank()
    admin = await createTestClient(server, { roles: ['admin'] })
    usersA = []
    // Created out of alphabetical order, so ordering by username differs from the default.
    for (const [username, email] of [
      ['ruth', 'ruth@bank-a.example'],
      ['nora', 'nora@bank-a.example'],
      ['quinn', 'quinn@bank-a.example'],
      ['oscar', 'oscar@bank-a.example'],
      ['paul', 'Paul.P@Bank-A.example'],
    ]) {
      usersA.push(await create(a, { username, email }))
    }
    named = Object.fromEntries(usersA.map((u) => [u.username, u]))
    userB = await create(b, { username: 'nora', email: 'nora@bank-b.example' })
  })

  const list = (client: TestClient, query = '') => server.request('GET', `${USERS}${query}`, { token: client.token })

  it("returns the envelope with the caller's tenant only, oldest first", async () => {
    const res = await list(a)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ heads: HEADS, items: usersA, total: 5, offset: 0, limit: 100 })
    const resB = await list(b)
    expect(resB.body).toEqual({ heads: HEADS, items: [userB], total: 1, offset: 0, limit: 100 })
  })

  it('pages with offset and limit, total counting every match', async () => {
    const res = await list(a, '?offset=2&limit=2')
    expect(res.body).toEqual({ heads: HEADS, items: usersA.slice(2, 4), total: 5, offset: 2, limit: 2 })
    const past = await list(a, '?offset=10')
    expect(past.body).toEqual({ heads: HEADS, items: [], total: 5, offset: 10, limit: 100 })
  })

  it('orders by a listed field, descending with a - prefix', async () => {
    const alphabetical = ['nora', 'oscar', 'paul', 'quinn', 'ruth']
    const byName = await list(a, '?order_by=username')
    expect(byName.body.items).toEqual(alphabetical.map((n) => named[n]))
    const byNameDesc = await list(a, '?order_by=-username&limit=2')
    expect(byNameDesc.body).toMatchObject({ items: [named.ruth, named.quinn], total: 5, limit: 2 })
    const desc = await list(a, '?order_by=-created_at')
    expect(desc.body.items).toEqual([...usersA].reverse())
    const byUidDesc = await list(a, '?order_by=-uid')
    expect(byUidDesc.body.items.map((u: any) => u.uid)).toEqual(
      usersA
        .map((u) => u.uid)
        .sort()
        .reverse(),
    )
  })

  it('filters by username and email exactly, ignoring case', async () => {
    expect((await list(a, '?username=OSCAR')).body).toMatchObject({ items: [named.oscar], total: 1 })
    expect((await list(a, '?username=osc')).body).toMatchObject({ items: [], total: 0 })
    expect((await list(a, '?email=paul.p%40bank-a.example')).body).toMatchObject({ items: [named.paul], total: 1 })
    expect((await list(a, '?email=%20Paul.P%40BANK-A.EXAMPLE%20')).body).toMatchObject({ items: [named.paul], total: 1 })
    expect((await list(a, '?email=bank-a.example')).body).toMatchObject({ items: [], total: 0 })
    expect((await list(a, '?username=paul&email=ruth%40bank-a.example')).body).toMatchObject({ items: [], total: 0 })
    // Bank B's "nora" never shows in bank A's filtered list, and vice versa.
    expect((await list(a, '?username=nora')).body).toMatchObject({ items: [named.nora], total: 1 })
    expect((await list(b, '?username=nora')).body).toMatchObject({ items: [userB], total: 1 })
  })

  it('filters by created_at and updated_at ranges, bounds included', async () => {
    const from = encodeURIComponent(`${usersA[1].created_at}Z`)
    const to = encodeURIComponent(`${usersA[3].created_at}Z`)
    expect((await list(a, `?created_at_from=${from}&created_at_to=${to}`)).body).toMatchObject({ items: usersA.slice(1, 4), total: 3 })
    expect((await list(a, `?updated_at_from=${from}`)).body).toMatchObject({ items: usersA.slice(1), total: 4 })
    expect((await list(a, `?updated_at_to=${to}`)).body).toMatchObject({ items: usersA.slice(0, 4), total: 4 })
    expect((await list(a, '?created_at_from=2999-01-01T00:00:00Z')).body).toMatchObject({ items: [], total: 0 })
    expect((await list(a, '?created_at_to=2000-01-01T00:00:00%2B03:30')).body).toMatchObject({ items: [], total: 0 })
  })

  it('rejects bad query parameters with 422', async () => {
    const cases: [string, unknown[]][] = [
      [
        '?limit=101',
        [
          {
            type: 'value_error.number.not_le',
            loc: ['query', 'limit'],
            msg: 'ensure this value is less than or equal to 100',
            input: '101',
            ctx: { limit_value: 100 },
          },
        ],
      ],
      [
        '?offset=-1',
        [
          {
            type: 'value_error.number.not_ge',
            loc: ['query', 'offset'],
            msg: 'ensure this value is greater than or equal to 0',
            input: '-1',
            ctx: { limit_value: 0 },
          },
        ],
      ],
      ['?password=x', [{ type: 'value_error.extra', loc: ['query', 'password'], msg: 'extra fields not permitted' }]],
      [
        '?created_at_from=2026-01-01',
        [{ type: 'value_error.datetime', loc: ['query', 'created_at_from'], msg: 'invalid datetime format', input: '2026-01-01' }],
      ],
      ['?tenant_id=nope', [{ type: 'type_error.uuid', loc: ['query', 'tenant_id'], msg: 'value is not a valid uuid', input: 'nope' }]],
    ]
    for (const [query, detail] of cases) {
      const res = await list(a, query)
      expect(res.status, query).toBe(422)
      expect(res.body, query).toEqual({ detail })
    }
    const order = await list(a, '?order_by=secret')
    expect(order.status).toBe(422)
    expect(order.body.detail).toHaveLength(1)
    expect(order.body.detail[0]).toMatchObject({ type: 'type_error.enum', loc: ['query', 'order_by'], input: 'secret' })
    expect(order.body.detail[0].ctx.enum_values).toEqual(
      ['uid', 'created_at', 'updated_at', 'is_deleted', 'meta_data', 'user_id', 'tenant_id', 'username', 'email', 'is_active'].flatMap((f) => [f, `-${f}`]),
    )
  })

  it('lets a bank name its own tenant_id but not another', async () => {
    expect((await list(a, `?tenant_id=${a.tenantId}`)).body).toMatchObject({ items: usersA, total: 5 })
    const other = await list(a, `?tenant_id=${b.tenantId}`)
    expect(other.status).toBe(403)
    expect(other.body).toEqual(forbiddenBody('Token belongs to different client'))
  })

  it('lets an admin list every tenant, or one tenant by tenant_id', async () => {
    const all = await list(admin, '?limit=100')
    expect(all.status).toBe(200)
    const uids = all.body.items.map((u: any) => u.uid)
    for (const u of [...usersA, userB]) expect(uids).toContain(u.uid)
    expect(new Set(all.body.items.map((u: any) => u.tenant_id)).size).toBeGreaterThan(2)
    expect(all.body.total).toBeGreaterThanOrEqual(uids.length)
    expect((await list(admin, `?tenant_id=${b.tenantId}`)).body).toEqual({ heads: HEADS, items: [userB], total: 1, offset: 0, limit: 100 })
    expect((await list(admin, `?tenant_id=${a.tenantId}&username=nora`)).body).toMatchObject({ items: [named.nora], total: 1 })
  })

  it('hides deleted users from the list and from a lookup', async () => {
    const c = await bank()
    const kept = await create(c, { username: 'sam', email: 'sam@c.example' })
    const gone = await create(c, { username: 'tess', email: 'tess@c.example' })
    await server.services.db.updateTable('users').set({ is_deleted: true }).where('uid', '=', gone.uid).execute()
    expect((await list(c)).body).toMatchObject({ items: [kept], total: 1 })
    const res = await server.request('GET', `${USERS}/${gone.uid}`, { token: c.token })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFoundBody)
  })
})

describe('tenant isolation over GraphQL', () => {
  it("never shows one bank's users to another", async () => {
    const a = await bank()
    const b = await bank()
    const created = await server.graphql(CreateUserDocument, { input: { username: 'uma', email: 'uma@bank-a.example' } }, { token: a.token })
    expect(created.errors).toBeUndefined()
    const uma = created.data!.createUser
    expect(uma).toMatchObject({ tenantId: a.tenantId, userId: a.clientId, username: 'uma', isActive: true, isDeleted: false, metaData: null })

    const listB = await server.graphql(UsersDocument, {}, { token: b.token })
    expect(listB.errors).toBeUndefined()
    expect(listB.data!.users).toEqual({ heads: HEADS, items: [], total: 0, offset: 0, limit: 100 })
    const filtered = await server.graphql(UsersDocument, { filter: { username: 'uma' } }, { token: b.token })
    expect(filtered.data!.users.total).toBe(0)

    const oneB = await server.graphql(UserDocument, { uid: uma.uid }, { token: b.token })
    expect(oneB.data).toEqual({ user: null })
    expect(oneB.errors).toHaveLength(1)
    expect(oneB.errors![0]).toMatchObject({
      message: 'Token belongs to different client',
      path: ['user'],
      extensions: { code: 'FORBIDDEN', error: 'permission_denied' },
    })
    // Yoga answers with the REST status and strips `extensions.http` from the body.
    expect(oneB.status).toBe(403)
    const otherTenant = await server.graphql(UsersDocument, { filter: { tenantId: a.tenantId } }, { token: b.token })
    expect(otherTenant.errors![0]).toMatchObject({ message: 'Token belongs to different client', extensions: { code: 'FORBIDDEN' } })

    const listA = await server.graphql(UsersDocument, {}, { token: a.token })
    expect(listA.data!.users).toEqual({ heads: HEADS, items: [uma], total: 1, offset: 0, limit: 100 })
    const oneA = await server.graphql(UserDocument, { uid: uma.uid }, { token: a.token })
    expect(oneA.data).toEqual({ user: uma })
  })
})
