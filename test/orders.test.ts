import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setReferencePrice, setSymbolActive } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { CancelOrderDocument, CreateOrderDocument, OrderDocument, OrdersDocument, OrdersWithMarketsDocument } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { ORDER_KEYS, ORDERS, placeOrder, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let server: TestServer
let bank: TestClient
/** A second client of the same bank (tenant). */
let colleague: TestClient
let otherBank: TestClient
let admin: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
  colleague = await createTestClient(server, { tenant_id: bank.tenantId })
  otherBank = await createTestClient(server)
  admin = await createTestClient(server, { roles: ['admin'] })
})
afterAll(async () => {
  await server?.close()
})

const place = (body: unknown, client = bank) => placeOrder(server, client.token, body)
const detailOf = async (body: unknown) => {
  const res = await place(body)
  expect(res.status).toBe(422)
  return res.body.detail as { type: string; loc: (string | number)[]; msg: string; input?: unknown; ctx?: Record<string, unknown> }[]
}
const summary = (detail: { type: string; loc: (string | number)[]; ctx?: unknown }[]) => detail.map((d) => [d.loc.join('.'), d.type, d.ctx])

describe('POST /api/exchange/v1/orders', () => {
  it('places a limit order: 201 with the full record, resting open', async () => {
    const res = await place({ ...usdBuy, client_order_id: 'bank-a-0001' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(ORDER_KEYS)
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      meta_data: null,
      user_id: bank.clientId,
      tenant_id: bank.tenantId,
      client_order_id: 'bank-a-0001',
      symbol: 'USD-IRR',
      side: 'buy',
      type: 'limit',
      quantity: '1000',
      price: '1050000',
      status: 'open',
      filled_quantity: '0',
      average_price: null,
      cancel_reason: null,
      time_in_force: 'gtc',
      post_only: false,
      stop_price: null,
      expire_at: null,
    })
    const stored = await server.services.db.selectFrom('orders').selectAll().where('uid', '=', res.body.uid).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ tenant_id: bank.tenantId, user_id: bank.clientId, status: 'open' })
  })

  it('answers a market order on an empty book cancelled and unfilled (immediate-or-cancel)', async () => {
    const res = await place({ symbol: 'ETH-USDT', side: 'sell', type: 'market', quantity: '0.5' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      type: 'market',
      price: null,
      status: 'cancelled',
      cancel_reason: 'unfilled',
      filled_quantity: '0',
      average_price: null,
      quantity: '0.5',
      client_order_id: null,
    })
    const explicitNull = await place({ symbol: 'ETH-USDT', side: 'buy', type: 'market', quantity: '1', price: null })
    expect(explicitNull.status).toBe(201)
  })

  it('keeps decimals as sent, and upper-cases the symbol', async () => {
    const res = await place({ symbol: 'btc-usdt', side: 'buy', type: 'limit', quantity: '0.500000', price: '64000.10' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ symbol: 'BTC-USDT', quantity: '0.500000', price: '64000.10' })
  })

  it('accepts quantities in the lots a negative precision demands', async () => {
    expect((await place({ ...usdBuy, quantity: '1230' })).status).toBe(201) // USD-IRR: precision -1, tens
    expect((await place({ symbol: 'CNY-IRR', side: 'sell', type: 'limit', quantity: '1200', price: '145000' })).status).toBe(201) // hundreds
  })

  it('refuses an unknown or inactive symbol with value_error.symbol', async () => {
    expect(await detailOf({ ...usdBuy, symbol: 'XAU-IRR' })).toEqual([
      { type: 'value_error.symbol', loc: ['body', 'symbol'], msg: 'unknown symbol XAU-IRR', input: 'XAU-IRR' },
    ])
    expect(await detailOf({ symbol: 'ETH-IRT', side: 'buy', type: 'limit', quantity: '1', price: '100000000' })).toEqual([
      { type: 'value_error.symbol', loc: ['body', 'symbol'], msg: 'symbol ETH-IRT is not active', input: 'ETH-IRT' },
    ])
  })

  it('refuses side and type outside their enums with type_error.enum', async () => {
    expect(await detailOf({ ...usdBuy, side: 'BUY', type: 'stop' })).toEqual([
      {
        type: 'type_error.enum',
        loc: ['body', 'side'],
        msg: "value is not a valid enumeration member; permitted: 'buy', 'sell'",
        input: 'BUY',
        ctx: { enum_values: ['buy', 'sell'] },
      },
      {
        type: 'type_error.enum',
        loc: ['body', 'type'],
        msg: "value is not a valid enumeration member; permitted: 'limit', 'market', 'stop_limit', 'stop_market'",
        input: 'stop',
        ctx: { enum_values: ['limit', 'market', 'stop_limit', 'stop_market'] },
      },
    ])
  })

  it('reports missing fields', async () => {
    expect(await detailOf({})).toEqual([
      { type: 'missing', loc: ['body', 'symbol'], msg: 'Field required' },
      { type: 'missing', loc: ['body', 'side'], msg: 'Field required' },
      { type: 'missing', loc: ['body', 'type'], msg: 'Field required' },
      { type: 'missing', loc: ['body', 'quantity'], msg: 'Field required' },
    ])
    const { price: _, ...noPrice } = usdBuy
    expect(await detailOf(noPrice)).toEqual([{ type: 'missing', loc: ['body', 'price'], msg: 'Field required' }])
    expect(await detailOf({ ...usdBuy, price: null })).toEqual([{ type: 'missing', loc: ['body', 'price'], msg: 'Field required' }])
  })

  it('takes decimals as JSON strings only', async () => {
    expect(await detailOf({ ...usdBuy, quantity: 1000, price: 1050000.5 })).toEqual([
      { type: 'type_error.str', loc: ['body', 'quantity'], msg: 'str type expected', input: 1000 },
      { type: 'type_error.str', loc: ['body', 'price'], msg: 'str type expected', input: 1050000.5 },
    ])
    expect(summary(await detailOf({ ...usdBuy, quantity: '1e3', price: 'abc' }))).toEqual([
      ['body.quantity', 'type_error.decimal', undefined],
      ['body.price', 'type_error.decimal', undefined],
    ])
    expect(summary(await detailOf({ ...usdBuy, quantity: '1'.repeat(41) }))).toEqual([['body.quantity', 'value_error.any_str.max_length', { limit_value: 40 }]])
  })

  it('checks quantity: positive, at least the minimum, within the precision', async () => {
    expect(await detailOf({ ...usdBuy, quantity: '0' })).toEqual([
      { type: 'value_error.number.not_gt', loc: ['body', 'quantity'], msg: 'ensure this value is greater than 0', input: '0', ctx: { limit_value: '0' } },
    ])
    expect(summary(await detailOf({ ...usdBuy, quantity: '-100' }))).toEqual([['body.quantity', 'value_error.number.not_gt', { limit_value: '0' }]])
    expect(await detailOf({ ...usdBuy, quantity: '50' })).toEqual([
      {
        type: 'value_error.number.not_ge',
        loc: ['body', 'quantity'],
        msg: 'ensure this value is greater than or equal to 100',
        input: '50',
        ctx: { limit_value: '100' },
      },
    ])
    // USD-IRR trades in tens (quantity_precision -1): reported as the multiple it demands.
    expect(await detailOf({ ...usdBuy, quantity: '1005' })).toEqual([
      {
        type: 'value_error.number.not_multiple',
        loc: ['body', 'quantity'],
        msg: 'ensure this value is a multiple of 10',
        input: '1005',
        ctx: { multiple_of: '10' },
      },
    ])
    expect(summary(await detailOf({ symbol: 'CNY-IRR', side: 'buy', type: 'limit', quantity: '1050', price: '145000' }))).toEqual([
      ['body.quantity', 'value_error.number.not_multiple', { multiple_of: '100' }],
    ])
    // Both rules broken at once: both reported, bounds first.
    expect(await detailOf({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.0000001', price: '64000' })).toEqual([
      {
        type: 'value_error.number.not_ge',
        loc: ['body', 'quantity'],
        msg: 'ensure this value is greater than or equal to 0.0001',
        input: '0.0000001',
        ctx: { limit_value: '0.0001' },
      },
      {
        type: 'value_error.decimal.max_places',
        loc: ['body', 'quantity'],
        msg: 'ensure that there are no more than 6 decimal places',
        input: '0.0000001',
        ctx: { decimal_places: 6 },
      },
    ])
    // Trailing zeros beyond the precision are not extra places.
    expect((await place({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.10000000', price: '64000' })).status).toBe(201)
  })

  it('checks a limit price: positive, a multiple of the tick, within the precision', async () => {
    expect(await detailOf({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '1', price: '100.001' })).toEqual([
      {
        type: 'value_error.number.not_multiple',
        loc: ['body', 'price'],
        msg: 'ensure this value is a multiple of 0.01',
        input: '100.001',
        ctx: { multiple_of: '0.01' },
      },
      {
        type: 'value_error.decimal.max_places',
        loc: ['body', 'price'],
        msg: 'ensure that there are no more than 2 decimal places',
        input: '100.001',
        ctx: { decimal_places: 2 },
      },
    ])
    expect(summary(await detailOf({ ...usdBuy, price: '1050005' }))).toEqual([['body.price', 'value_error.number.not_multiple', { multiple_of: '10' }]])
    expect(summary(await detailOf({ symbol: 'AED-IRR', side: 'buy', type: 'limit', quantity: '500', price: '286002.5' }))).toEqual([
      ['body.price', 'value_error.number.not_multiple', { multiple_of: '5' }],
      ['body.price', 'value_error.decimal.max_places', { decimal_places: 0 }],
    ])
    expect(summary(await detailOf({ ...usdBuy, price: '0' }))).toEqual([['body.price', 'value_error.number.not_gt', { limit_value: '0' }]])
  })

  it('refuses a price on a market order', async () => {
    expect(await detailOf({ symbol: 'BTC-USDT', side: 'buy', type: 'market', quantity: '1', price: '64000' })).toEqual([
      { type: 'value_error.extra', loc: ['body', 'price'], msg: 'market orders take no price', input: '64000' },
    ])
  })

  describe('with a reference price', () => {
    beforeAll(async () => {
      await setReferencePrice(server.services.db, 'USD-IRR', '1050000') // ±5% → 997500..1102500
    })
    afterAll(async () => {
      await server.services.db.updateTable('symbols').set({ reference_price: null }).where('symbol', '=', 'USD-IRR').execute()
    })

    it('accepts prices inside the daily band, bounds included', async () => {
      for (const price of ['997500', '1050000', '1102500']) expect((await place({ ...usdBuy, price })).status).toBe(201)
    })

    it('refuses prices outside it, naming the bound', async () => {
      expect(await detailOf({ ...usdBuy, price: '997490' })).toEqual([
        {
          type: 'value_error.number.not_ge',
          loc: ['body', 'price'],
          msg: 'ensure this value is greater than or equal to 997500',
          input: '997490',
          ctx: { limit_value: '997500' },
        },
      ])
      expect(await detailOf({ ...usdBuy, price: '1102510' })).toEqual([
        {
          type: 'value_error.number.not_le',
          loc: ['body', 'price'],
          msg: 'ensure this value is less than or equal to 1102500',
          input: '1102510',
          ctx: { limit_value: '1102500' },
        },
      ])
    })
  })

  it('lists every broken rule at once, in field order, unknown fields last', async () => {
    const detail = await detailOf({ extra: true, price: '1.001', quantity: '55', type: 'limit', side: 'hold', symbol: 'USD-IRR' })
    expect(summary(detail)).toEqual([
      ['body.side', 'type_error.enum', { enum_values: ['buy', 'sell'] }],
      ['body.quantity', 'value_error.number.not_ge', { limit_value: '100' }],
      ['body.quantity', 'value_error.number.not_multiple', { multiple_of: '10' }],
      ['body.price', 'value_error.number.not_multiple', { multiple_of: '10' }],
      ['body.price', 'value_error.decimal.max_places', { decimal_places: 0 }],
      ['body.extra', 'value_error.extra', undefined],
    ])
    const unknownSymbol = await detailOf({ symbol: 'NOPE-IRR', side: 'buy', type: 'limit', quantity: 'x' })
    expect(summary(unknownSymbol)).toEqual([
      ['body.symbol', 'value_error.symbol', undefined],
      ['body.quantity', 'type_error.decimal', undefined],
      ['body.price', 'missing', undefined],
    ])
    // Rules that need no symbol still apply when the symbol is unknown.
    expect(summary(await detailOf({ symbol: 'NOPE-IRR', side: 'buy', type: 'limit', quantity: '-1', price: '0' }))).toEqual([
      ['body.symbol', 'value_error.symbol', undefined],
      ['body.quantity', 'value_error.number.not_gt', { limit_value: '0' }],
      ['body.price', 'value_error.number.not_gt', { limit_value: '0' }],
    ])
  })

  it('refuses bodies that are not a JSON object', async () => {
    expect(await detailOf([usdBuy])).toEqual([{ type: 'type_error.dict', loc: ['body'], msg: 'value is not a valid dict', input: [usdBuy] }])
    const empty = await server.request('POST', ORDERS, { token: bank.token })
    expect(empty.status).toBe(422)
    expect(empty.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required' }] })
    const broken = await server.request('POST', ORDERS, { token: bank.token, rawBody: '{"symbol": ', headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(422)
    expect(broken.body.detail[0].type).toBe('json_invalid')
  })

  it('reports a bad token or a missing scope before anything about the body', async () => {
    const anonymous = await server.request('POST', ORDERS, { rawBody: '{', headers: { 'content-type': 'application/json' } })
    expect(anonymous.status).toBe(401)
    const reader = await createTestClient(server, { scopes: ['orders:read'] })
    const denied = await server.request('POST', ORDERS, { token: reader.token, rawBody: '{', headers: { 'content-type': 'application/json' } })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({
      message: 'Access denied: requires orders:write',
      error: 'permission_denied',
      detail: 'Access denied: requires orders:write',
    })
    const wildcard = await createTestClient(server, { scopes: ['orders:*'] })
    expect((await place(usdBuy, wildcard)).status).toBe(201)
  })
})

describe('idempotency by client_order_id', () => {
  it('answers a resubmission with the existing order and 200, never a second order', async () => {
    const body = { ...usdBuy, client_order_id: 'retry-1' }
    const first = await place(body)
    expect(first.status).toBe(201)
    const again = await place(body)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    // Same values spelled differently, and from another client of the same bank.
    const respelled = await place({ ...body, quantity: '1000.00', price: '1050000.0' }, colleague)
    expect(respelled.status).toBe(200)
    expect(respelled.body.uid).toBe(first.body.uid)
    const count = await server.services.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', bank.tenantId)
      .where('client_order_id', '=', 'retry-1')
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
  })

  it('answers 409 conflict when the id is reused for a different order', async () => {
    const first = await place({ ...usdBuy, client_order_id: 'retry-2' })
    for (const change of [{ quantity: '2000' }, { side: 'sell' }, { price: '1050010' }, { symbol: 'EUR-IRR', price: '1210000' }]) {
      const res = await place({ ...usdBuy, client_order_id: 'retry-2', ...change })
      expect(res.status).toBe(409)
      const message = `client_order_id retry-2 was already used for a different order (${first.body.uid})`
      expect(res.body).toEqual({ message, error: 'conflict', detail: message })
    }
    const market = await place({ symbol: 'USD-IRR', side: 'buy', type: 'market', quantity: '1000', client_order_id: 'retry-2' })
    expect(market.status).toBe(409)
  })

  it('gives a retry the original answer even after the market changed', async () => {
    const body = { symbol: 'AED-IRR', side: 'sell', type: 'limit', quantity: '500', price: '286000', client_order_id: 'retry-3' }
    const first = await place(body)
    expect(first.status).toBe(201)
    await setSymbolActive(server.services.db, 'AED-IRR', false)
    try {
      const again = await place(body)
      expect(again.status).toBe(200)
      expect(again.body.uid).toBe(first.body.uid)
      const fresh = await place({ ...body, client_order_id: 'retry-4' })
      expect(fresh.status).toBe(422)
      expect(fresh.body.detail[0].type).toBe('value_error.symbol')
    } finally {
      await setSymbolActive(server.services.db, 'AED-IRR', true)
    }
  })

  it('scopes the id to the tenant: another bank may use the same id', async () => {
    const mine = await place({ ...usdBuy, client_order_id: 'shared-id' })
    const theirs = await place({ ...usdBuy, client_order_id: 'shared-id' }, otherBank)
    expect(mine.status).toBe(201)
    expect(theirs.status).toBe(201)
    expect(theirs.body.uid).not.toBe(mine.body.uid)
    expect(theirs.body.tenant_id).toBe(otherBank.tenantId)
  })

  it('validates the id', async () => {
    expect(summary(await detailOf({ ...usdBuy, client_order_id: 'has space' }))[0]!.slice(0, 2)).toEqual(['body.client_order_id', 'value_error.str.regex'])
    expect(summary(await detailOf({ ...usdBuy, client_order_id: '' }))[0]!.slice(0, 2)).toEqual(['body.client_order_id', 'value_error.any_str.min_length'])
    expect(summary(await detailOf({ ...usdBuy, client_order_id: 'x'.repeat(65) }))[0]!.slice(0, 2)).toEqual([
      'body.client_order_id',
      'value_error.any_str.max_length',
    ])
  })
})

describe('GET /api/exchange/v1/orders/:uid', () => {
  it('answers the order to its tenant, and to admins', async () => {
    const created = (await place(usdBuy)).body
    for (const reader of [bank, colleague, admin]) {
      const res = await server.request('GET', `${ORDERS}/${created.uid}`, { token: reader.token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(created)
    }
  })

  it("answers 403 for another tenant's order", async () => {
    const created = (await place(usdBuy)).body
    const res = await server.request('GET', `${ORDERS}/${created.uid}`, { token: otherBank.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Token belongs to different client', error: 'permission_denied', detail: 'Token belongs to different client' })
  })

  it('answers 404 for an unknown uid, including one that is not a UUID', async () => {
    for (const uid of [randomUUID(), 'not-a-uuid', "1' or '1'='1", '12345']) {
      const res = await server.request('GET', `${ORDERS}/${encodeURIComponent(uid)}`, { token: bank.token })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: `Order ${uid} not found`, error: 'not_found', detail: `Order ${uid} not found` })
    }
  })

  it('requires orders:read', async () => {
    const writer = await createTestClient(server, { scopes: ['orders:write'] })
    const res = await server.request('GET', `${ORDERS}/${randomUUID()}`, { token: writer.token })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Access denied: requires orders:read')
  })
})

describe('GET /api/exchange/v1/orders', () => {
  let lister: TestClient
  let otherLister: TestClient
  beforeAll(async () => {
    lister = await createTestClient(server)
    otherLister = await createTestClient(server)
    // Prices no other order of this file crosses; the market buy meets only the lister's own sell
    // (self-trade prevention cancels it).
    await place({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '1', price: '64000' }, lister)
    await place({ symbol: 'BTC-USDT', side: 'sell', type: 'limit', quantity: '2', price: '99000' }, lister)
    await place({ symbol: 'USD-IRR', side: 'sell', type: 'limit', quantity: '100', price: '9990000' }, lister)
    await place({ symbol: 'BTC-USDT', side: 'buy', type: 'market', quantity: '3' }, lister)
    await place({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '9', price: '60000' }, otherLister)
  })
  const list = (query = '', client = lister) => server.request('GET', `${ORDERS}${query}`, { token: client.token })

  it("lists the caller's tenant only, in the envelope with the order heads", async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['heads', 'items', 'total', 'offset', 'limit'])
    expect(Object.keys(res.body.heads)).toEqual(ORDER_KEYS)
    expect(res.body.heads.client_order_id).toEqual({ en: 'Client Order ID' })
    expect(res.body.heads.filled_quantity).toEqual({ en: 'Filled Quantity' })
    expect(res.body).toMatchObject({ total: 4, offset: 0, limit: 100 })
    expect(res.body.items.every((o: any) => o.tenant_id === lister.tenantId)).toBe(true)
    expect(res.body.items.map((o: any) => o.quantity)).toEqual(['1', '2', '100', '3']) // created_at ascending by default
    expect(Object.keys(res.body.items[0])).toEqual(ORDER_KEYS)
  })

  it('filters by symbol, side and status, and pages', async () => {
    expect((await list('?symbol=BTC-USDT')).body.total).toBe(3)
    expect((await list('?symbol=btc-usdt&side=buy')).body.total).toBe(2)
    expect((await list('?status=cancelled')).body.items.map((o: any) => o.type)).toEqual(['market'])
    expect((await list('?status=open&side=sell')).body.items.map((o: any) => o.symbol)).toEqual(['BTC-USDT', 'USD-IRR'])
    const page = await list('?order_by=-quantity&limit=2&offset=1')
    expect(page.body).toMatchObject({ total: 4, offset: 1, limit: 2 })
    expect(page.body.items.map((o: any) => o.quantity)).toEqual(['3', '2'])
    expect((await list('?created_at_from=2999-01-01T00:00:00Z')).body).toMatchObject({ items: [], total: 0 })
  })

  it('lets admins list every tenant', async () => {
    const res = await list('?symbol=BTC-USDT&limit=100', admin)
    const tenants = new Set(res.body.items.map((o: any) => o.tenant_id))
    expect(tenants.has(lister.tenantId)).toBe(true)
    expect(tenants.has(otherLister.tenantId)).toBe(true)
  })

  it('validates the query like every list', async () => {
    const res = await list('?status=done&side=up&limit=101&uid=x')
    expect(res.status).toBe(422)
    expect(summary(res.body.detail)).toEqual([
      ['query.limit', 'value_error.number.not_le', { limit_value: 100 }],
      ['query.side', 'type_error.enum', { enum_values: ['buy', 'sell'] }],
      ['query.status', 'type_error.enum', { enum_values: ['open', 'partially_filled', 'filled', 'cancelled', 'pending'] }],
      ['query.uid', 'value_error.extra', undefined],
    ])
  })

  it('requires orders:read', async () => {
    const writer = await createTestClient(server, { scopes: ['orders:write'] })
    const res = await list('', writer)
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Access denied: requires orders:read')
  })
})

describe('DELETE /api/exchange/v1/orders/:uid', () => {
  const cancel = (uid: string, client = bank) => server.request('DELETE', `${ORDERS}/${uid}`, { token: client.token })

  it('cancels an open order: 200 with the cancelled record', async () => {
    const created = (await place(usdBuy)).body
    const res = await cancel(created.uid, colleague)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...created, status: 'cancelled', cancel_reason: 'user', updated_at: expect.stringMatching(TIMESTAMP) })
    expect(res.body.updated_at >= created.updated_at).toBe(true)
    expect((await server.request('GET', `${ORDERS}/${created.uid}`, { token: bank.token })).body.status).toBe('cancelled')
  })

  it('cancels what is left of a partially filled order', async () => {
    // Below every ask other tests leave resting, so only the sell below trades with it.
    const [buyer, seller] = await Promise.all([createTestClient(server), createTestClient(server)])
    const created = (await place({ symbol: 'AED-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '280000' }, buyer)).body
    const sold = await place({ symbol: 'AED-IRR', side: 'sell', type: 'limit', quantity: '600', price: '280000' }, seller)
    expect(sold.body).toMatchObject({ status: 'filled', filled_quantity: '600' })
    const res = await cancel(created.uid, buyer)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'cancelled', cancel_reason: 'user', filled_quantity: '600', average_price: '280000' })
  })

  it('answers 409 for an order that is no longer open', async () => {
    const created = (await place(usdBuy)).body
    expect((await cancel(created.uid)).status).toBe(200)
    const again = await cancel(created.uid)
    expect(again.status).toBe(409)
    const message = `Order ${created.uid} is cancelled; only open or partially filled orders can be cancelled`
    expect(again.body).toEqual({ message, error: 'conflict', detail: message })

    const market = (await place({ symbol: 'CNY-IRR', side: 'buy', type: 'market', quantity: '1000' })).body
    expect((await cancel(market.uid)).status).toBe(409)

    const [buyer, seller] = await Promise.all([createTestClient(server), createTestClient(server)])
    const filled = (await place({ symbol: 'CNY-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '140000' }, buyer)).body
    expect((await place({ symbol: 'CNY-IRR', side: 'sell', type: 'limit', quantity: '1000', price: '140000' }, seller)).body.status).toBe('filled')
    const res = await cancel(filled.uid, buyer)
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(`Order ${filled.uid} is filled; only open or partially filled orders can be cancelled`)
  })

  it('lets exactly one of many concurrent cancels win', async () => {
    const created = (await place(usdBuy)).body
    const results = await Promise.all(Array.from({ length: 20 }, () => cancel(created.uid)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(19)
  })

  it("answers 403 for another tenant's order, admins included, and leaves it open", async () => {
    const created = (await place(usdBuy)).body
    for (const client of [otherBank, admin]) {
      const res = await cancel(created.uid, client)
      expect(res.status).toBe(403)
      expect(res.body.detail).toBe('Token belongs to different client')
    }
    expect((await server.request('GET', `${ORDERS}/${created.uid}`, { token: bank.token })).body.status).toBe('open')
  })

  it('answers 404 for an unknown uid, 403 without orders:write', async () => {
    expect((await cancel(randomUUID())).status).toBe(404)
    expect((await cancel('nope')).status).toBe(404)
    const reader = await createTestClient(server, { scopes: ['orders:read'] })
    const denied = await cancel(randomUUID(), reader)
    expect(denied.status).toBe(403)
    expect(denied.body.message).toBe('Access denied: requires orders:write')
  })
})

describe('GraphQL orders', () => {
  it('creates, reads, lists and cancels', async () => {
    const created = await server.graphql(
      CreateOrderDocument,
      { input: { symbol: 'EUR-IRR', side: 'buy', type: 'limit', quantity: '200', price: '1210000', clientOrderId: 'gql-1' } },
      { token: bank.token },
    )
    expect(created.errors).toBeUndefined()
    const order = created.data!.createOrder.order
    expect(created.data!.createOrder.created).toBe(true)
    expect(order).toMatchObject({
      symbol: 'EUR-IRR',
      side: 'buy',
      type: 'limit',
      quantity: '200',
      price: '1210000',
      status: 'open',
      filledQuantity: '0',
      clientOrderId: 'gql-1',
      userId: bank.clientId,
      tenantId: bank.tenantId,
    })

    const replayed = await server.graphql(
      CreateOrderDocument,
      { input: { symbol: 'EUR-IRR', side: 'buy', type: 'limit', quantity: '200', price: '1210000', clientOrderId: 'gql-1' } },
      { token: bank.token },
    )
    expect(replayed.data!.createOrder).toEqual({ created: false, order })

    const conflicting = await server.graphql(
      CreateOrderDocument,
      { input: { symbol: 'EUR-IRR', side: 'sell', type: 'limit', quantity: '200', price: '1210000', clientOrderId: 'gql-1' } },
      { token: bank.token },
    )
    expect(conflicting.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', error: 'conflict' })

    expect((await server.graphql(OrderDocument, { uid: order.uid }, { token: bank.token })).data!.order).toEqual(order)
    const listed = await server.graphql(OrdersDocument, { filter: { symbol: 'EUR-IRR' } }, { token: bank.token })
    expect(listed.data!.orders.items.map((o) => o.uid)).toContain(order.uid)

    const cancelled = await server.graphql(CancelOrderDocument, { uid: order.uid }, { token: bank.token })
    expect(cancelled.data!.cancelOrder).toMatchObject({ uid: order.uid, status: 'cancelled' })
    const again = await server.graphql(CancelOrderDocument, { uid: order.uid }, { token: bank.token })
    expect(again.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT' })
  })

  it('answers null for an unknown order, FORBIDDEN for another tenant, NOT_FOUND when cancelling nothing', async () => {
    expect((await server.graphql(OrderDocument, { uid: randomUUID() }, { token: bank.token })).data).toEqual({ order: null })
    expect((await server.graphql(OrderDocument, { uid: 'not-a-uuid' }, { token: bank.token })).data).toEqual({ order: null })
    const theirs = (await place(usdBuy, otherBank)).body
    const res = await server.graphql(OrderDocument, { uid: theirs.uid }, { token: bank.token })
    expect(res.errors![0]).toMatchObject({ message: 'Token belongs to different client', extensions: { code: 'FORBIDDEN', error: 'permission_denied' } })
    const missing = await server.graphql(CancelOrderDocument, { uid: randomUUID() }, { token: bank.token })
    expect(missing.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' })
  })

  it("loads orders' markets in one batch", async () => {
    const trader = await createTestClient(server)
    for (const symbol of ['USD-IRR', 'EUR-IRR', 'USD-IRR', 'BTC-USDT']) {
      const price = symbol === 'BTC-USDT' ? '64000' : '1050000'
      const quantity = symbol === 'BTC-USDT' ? '1' : '1000'
      expect((await place({ symbol, side: 'buy', type: 'limit', quantity, price }, trader)).status).toBe(201)
    }
    // The count is the process's: a background statement (the symbols' change poll) may land in
    // one window, never in three in a row; unbatched loads would add one per order every time.
    const load = async () => {
      const before = server.services.database.queryCount()
      const res = await server.graphql(OrdersWithMarketsDocument, { limit: 10 }, { token: trader.token })
      return { res, statements: server.services.database.queryCount() - before }
    }
    const first = await load()
    const { res } = first
    let { statements } = first
    for (let attempt = 1; attempt < 3 && statements > 3; attempt++) statements = Math.min(statements, (await load()).statements)
    expect(res.errors).toBeUndefined()
    expect(res.data!.orders.items.map((o) => [o.symbol, o.market.symbol, o.market.base.symbol])).toEqual([
      ['USD-IRR', 'USD-IRR', 'USD'],
      ['EUR-IRR', 'EUR-IRR', 'EUR'],
      ['USD-IRR', 'USD-IRR', 'USD'],
      ['BTC-USDT', 'BTC-USDT', 'BTC'],
    ])
    expect(statements).toBe(3) // orders page, their symbols, the symbols' currencies
  })
})
