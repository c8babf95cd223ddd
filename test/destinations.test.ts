import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const API = '/api/exchange/v1'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SHEBA = 'IR062960000000100324200001'
const DE_IBAN = 'DE89370400440532013000'
const errorBody = (error: string, message: string) => ({ message, error, detail: message })

let server: TestServer
let bank: TestClient
let other: TestClient
let admin: TestClient
let noScope: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server, { funded: false })
  other = await createTestClient(server, { funded: false })
  admin = await createTestClient(server, { funded: false, roles: ['admin'] })
  noScope = await createTestClient(server, { funded: false, scopes: ['orders:read'] })
})
afterAll(async () => {
  await server?.close()
})

const create = (body: Record<string, unknown>, token = admin.token) => server.request('POST', `${API}/destinations`, { token, body })

describe('POST /api/exchange/v1/destinations', () => {
  it('registers an IBAN (201), stored upper case without spaces', async () => {
    const res = await create({ tenant_id: bank.tenantId, currency: 'eur', label: 'Frankfurt', iban: 'de89 3704 0044 0532 0130 00' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['uid', 'tenant_id', 'currency', 'label', 'iban', 'created_at'])
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      tenant_id: bank.tenantId,
      currency: 'EUR',
      label: 'Frankfurt',
      iban: DE_IBAN,
      created_at: expect.stringMatching(TIMESTAMP),
    })
  })

  it('registers an Iranian Sheba (IR and 24 digits, mod-97)', async () => {
    const res = await create({ tenant_id: bank.tenantId, currency: 'IRR', label: 'Melli', iban: SHEBA })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ currency: 'IRR', iban: SHEBA })
  })

  it.each([
    ['a wrong check digit', 'DE89370400440532013001'],
    ['a Sheba with 23 digits', 'IR06296000000010032420000'],
    ['a Sheba whose mod-97 fails', 'IR072960000000100324200001'],
    ['a country without IBANs', 'US12345678901234567890'],
    ['not an IBAN at all', 'hello'],
  ])('refuses %s: 422 value_error.iban, nothing stored', async (_what, iban) => {
    const before = await server.request('GET', `${API}/destinations?tenant_id=${other.tenantId}`, { token: admin.token })
    const res = await create({ tenant_id: other.tenantId, currency: 'IRR', label: 'x', iban })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        {
          type: 'value_error.iban',
          loc: ['body', 'iban'],
          msg: 'value is not a valid IBAN (ISO 13616, mod-97) nor an Iranian Sheba (IR and 24 digits)',
          input: iban,
        },
      ],
    })
    const after = await server.request('GET', `${API}/destinations?tenant_id=${other.tenantId}`, { token: admin.token })
    expect(after.body.total).toBe(before.body.total)
  })

  it('names every problem: unknown tenant, unknown currency, bad IBAN', async () => {
    const tenant = randomUUID()
    const res = await create({ tenant_id: tenant, currency: 'XYZ', label: 'x', iban: 'nope' })
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
      ['value_error.tenant', ['body', 'tenant_id']],
      ['value_error.currency', ['body', 'currency']],
      ['value_error.iban', ['body', 'iban']],
    ])
  })

  it('bounds the IBAN text before reading it, and refuses unknown fields', async () => {
    const long = await create({ tenant_id: bank.tenantId, currency: 'IRR', label: 'x', iban: 'I'.repeat(100_000) })
    expect(long.status).toBe(422)
    expect(long.body.detail[0]).toMatchObject({ type: 'value_error.any_str.max_length', loc: ['body', 'iban'] })
    const extra = await create({ tenant_id: bank.tenantId, currency: 'IRR', label: 'x', iban: SHEBA, bank: 'x' })
    expect(extra.status).toBe(422)
    expect(extra.body.detail[0]).toMatchObject({ loc: ['body', 'bank'] })
  })

  it('is for admins with accounts:write: a bank is 403, no token 401', async () => {
    const body = { tenant_id: bank.tenantId, currency: 'IRR', label: 'x', iban: SHEBA }
    const res = await create(body, bank.token)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:write'))
    expect((await server.request('POST', `${API}/destinations`, { body })).status).toBe(401)
  })
})

describe('GET /api/exchange/v1/destinations', () => {
  it("lists a bank's own only; admins every tenant's or one's; filters by currency", async () => {
    const mine = await create({ tenant_id: other.tenantId, currency: 'USD', label: 'Other USD', iban: 'GB82WEST12345698765432' })
    expect(mine.status).toBe(201)
    const own = await server.request('GET', `${API}/destinations`, { token: other.token })
    expect(own.status).toBe(200)
    expect(own.body).toEqual({
      heads: {
        uid: { en: 'UID' },
        tenant_id: { en: 'Tenant ID' },
        currency: { en: 'Currency' },
        label: { en: 'Label' },
        iban: { en: 'Iban' },
        created_at: { en: 'Created At' },
      },
      items: [mine.body],
      total: 1,
      offset: 0,
      limit: 100,
    })
    const banks = await server.request('GET', `${API}/destinations?currency=irr`, { token: bank.token })
    expect(banks.body.items.map((d: any) => [d.currency, d.tenant_id])).toEqual([['IRR', bank.tenantId]])
    const all = await server.request('GET', `${API}/destinations?order_by=-created_at`, { token: admin.token })
    expect(all.body.total).toBe(3)
    expect(all.body.items[0]).toEqual(mine.body)
    const one = await server.request('GET', `${API}/destinations?tenant_id=${other.tenantId}`, { token: admin.token })
    expect(one.body.items).toEqual([mine.body])
  })

  it("refuses another tenant's to a bank (403), without the scope (403), bad filters (422)", async () => {
    const res = await server.request('GET', `${API}/destinations?tenant_id=${other.tenantId}`, { token: bank.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(errorBody('permission_denied', 'Token belongs to different client'))
    const scope = await server.request('GET', `${API}/destinations`, { token: noScope.token })
    expect(scope.status).toBe(403)
    expect(scope.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:read'))
    const bad = await server.request('GET', `${API}/destinations?order_by=iban`, { token: bank.token })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0]).toMatchObject({ type: 'type_error.enum', loc: ['query', 'order_by'] })
  })
})

describe('GraphQL', () => {
  const FIELDS = 'uid tenantId currency label iban createdAt'
  const camel = (d: any) => ({ uid: d.uid, tenantId: d.tenant_id, currency: d.currency, label: d.label, iban: d.iban, createdAt: d.created_at })

  it('createDestination and destinations answer what REST does, with the same errors', async () => {
    const tenant = await createTestClient(server, { funded: false })
    const mutation = `mutation ($input: DestinationInput!) { createDestination(input: $input) { ${FIELDS} } }`
    const created = await server.graphql<any, any>(
      mutation,
      { input: { tenantId: tenant.tenantId, currency: 'irr', label: 'GQL', iban: SHEBA.toLowerCase() } },
      { token: admin.token },
    )
    expect(created.errors).toBeUndefined()
    const rest = await server.request('GET', `${API}/destinations`, { token: tenant.token })
    expect(created.data.createDestination).toEqual(camel(rest.body.items[0]))
    const list = await server.graphql<any, any>(
      `{ destinations(filter: { currency: "IRR" }) { items { ${FIELDS} } total offset limit } }`,
      {},
      { token: tenant.token },
    )
    expect(list.data.destinations).toEqual({ items: rest.body.items.map(camel), total: 1, offset: 0, limit: 100 })

    const bad = await server.graphql<any, any>(
      mutation,
      { input: { tenantId: tenant.tenantId, currency: 'IRR', label: 'x', iban: 'IR00' } },
      { token: admin.token },
    )
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      detail: [{ type: 'value_error.iban', loc: ['body', 'iban'], input: 'IR00' }],
    })
    const denied = await server.graphql<any, any>(
      mutation,
      { input: { tenantId: tenant.tenantId, currency: 'IRR', label: 'x', iban: SHEBA } },
      { token: tenant.token },
    )
    expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' })
  })
})
