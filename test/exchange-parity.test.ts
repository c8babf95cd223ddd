import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setReferencePrice } from '../src/modules/exchange/symbols/symbol-admin.ts'
import {
  CancelOrderDocument,
  CreateOrderDocument,
  type CreateOrderInput,
  OrderDocument,
  type OrderFieldsFragment,
  OrdersDocument,
  SymbolDocument,
  type SymbolFieldsFragment,
  SymbolsDocument,
} from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * One scenario, both faces: what REST answers and what GraphQL answers must be the same data,
 * and the same mistake must produce the same `detail`.
 */
let server: TestServer
let bank: TestClient
let otherBank: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  await setReferencePrice(server.services.db, 'USD-IRR', '1050000')
  bank = await createTestClient(server)
  otherBank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

/** The REST order record as the GraphQL `Order` spells it. */
function orderAsGraphQL(record: any): OrderFieldsFragment {
  return {
    uid: record.uid,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    isDeleted: record.is_deleted,
    metaData: record.meta_data,
    userId: record.user_id,
    tenantId: record.tenant_id,
    clientOrderId: record.client_order_id,
    symbol: record.symbol,
    side: record.side,
    type: record.type,
    quantity: record.quantity,
    price: record.price,
    status: record.status,
    filledQuantity: record.filled_quantity,
  }
}

function symbolAsGraphQL(record: any): SymbolFieldsFragment {
  return {
    uid: record.uid,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    isDeleted: record.is_deleted,
    metaData: record.meta_data,
    userId: record.user_id,
    symbol: record.symbol,
    pricePrecision: record.price_precision,
    quantityPrecision: record.quantity_precision,
    minOrderQuantity: record.min_order_quantity,
    tickSize: record.tick_size,
    dailyFluctuationPriceLimitPercent: record.daily_fluctuation_price_limit_percent,
    description: record.description,
    isActive: record.is_active,
    properties: Object.values(record.properties).map((p: any) => ({
      name: p.name,
      symbol: p.symbol,
      precision: p.precision,
      icon: p.icon,
      isCrypto: p.is_crypto,
      color: p.color,
      unitValueIrr: String(p.unit_value_irr),
    })),
  }
}

const restBody = (input: CreateOrderInput) => ({
  ...(input.clientOrderId ? { client_order_id: input.clientOrderId } : {}),
  symbol: input.symbol,
  side: input.side,
  type: input.type,
  quantity: input.quantity,
  ...(input.price !== undefined ? { price: input.price } : {}),
})

describe('symbols on both faces', () => {
  it('lists the same symbols with the same data, page by page', async () => {
    for (const [query, variables] of [
      ['?order_by=symbol', { orderBy: { field: 'symbol' } }],
      ['?order_by=-created_at&limit=3&offset=2', { orderBy: { field: 'created_at', direction: 'desc' }, limit: 3, offset: 2 }],
      ['?is_active=false', { filter: { isActive: false } }],
    ] as const) {
      const rest = await server.request('GET', `/api/exchange/v1/symbols${query}`, { token: bank.token })
      const gql = await server.graphql(SymbolsDocument, variables, { token: bank.token })
      expect(gql.errors).toBeUndefined()
      expect(gql.data!.symbols).toEqual({
        total: rest.body.total,
        offset: rest.body.offset,
        limit: rest.body.limit,
        items: rest.body.items.map(symbolAsGraphQL),
      })
    }
  })

  it('reads one symbol the same way', async () => {
    const rest = await server.request('GET', '/api/exchange/v1/symbols/USD-IRR', { token: bank.token })
    const gql = await server.graphql(SymbolDocument, { symbol: 'USD-IRR' }, { token: bank.token })
    expect(gql.data!.symbol).toMatchObject(symbolAsGraphQL(rest.body))
  })

  it('rejects the same bad list parameters with the same detail', async () => {
    const rest = await server.request('GET', '/api/exchange/v1/symbols?limit=500&offset=-3&created_at_to=2026%2F01%2F01', {
      token: bank.token,
    })
    const gql = await server.graphql(SymbolsDocument, { limit: 500, offset: -3, filter: { createdAtTo: '2026/01/01' } }, { token: bank.token })
    expect(rest.status).toBe(422)
    expect(gql.errors![0]!.extensions.code).toBe('BAD_USER_INPUT')
    expect(gql.errors![0]!.extensions.detail).toEqual(rest.body.detail)
  })

  it('sorts by a typed field on GraphQL where REST takes order_by text', async () => {
    const rest = await server.request('GET', '/api/exchange/v1/symbols?order_by=nope', { token: bank.token })
    expect(rest.status).toBe(422)
    expect(rest.body.detail[0]).toMatchObject({ type: 'type_error.enum', loc: ['query', 'order_by'], input: 'nope' })
    // Not a SymbolSortField: refused before anything runs, as a generated client refuses it at compile time.
    const gql = await server.graphql(SymbolsDocument, { orderBy: { field: 'nope' as never } }, { token: bank.token })
    expect(gql.data).toBeUndefined()
    expect(gql.errors![0]!.message).toContain('SymbolSortField')
    const descending = await server.graphql(SymbolsDocument, { orderBy: { field: 'symbol', direction: 'desc' } }, { token: bank.token })
    const restDescending = await server.request('GET', '/api/exchange/v1/symbols?order_by=-symbol', { token: bank.token })
    expect(descending.data!.symbols.items.map((s) => s.symbol)).toEqual(restDescending.body.items.map((s: { symbol: string }) => s.symbol))
  })
})

describe('orders on both faces', () => {
  it('reads through GraphQL what REST created', async () => {
    const created = await placeOrder(server, bank.token, {
      symbol: 'USD-IRR',
      side: 'sell',
      type: 'limit',
      quantity: '500',
      price: '1060000',
      client_order_id: 'parity-rest',
    })
    expect(created.status).toBe(201)
    const gql = await server.graphql(OrderDocument, { uid: created.body.uid }, { token: bank.token })
    expect(gql.data!.order).toEqual(orderAsGraphQL(created.body))
  })

  it('reads through REST what GraphQL created, and replays across faces', async () => {
    const input: CreateOrderInput = { symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.25', price: '64000.50', clientOrderId: 'parity-gql' }
    const gql = await server.graphql(CreateOrderDocument, { input }, { token: bank.token })
    expect(gql.errors).toBeUndefined()
    const rest = await server.request('GET', `${ORDERS}/${gql.data!.createOrder.order.uid}`, { token: bank.token })
    expect(orderAsGraphQL(rest.body)).toEqual(gql.data!.createOrder.order)
    // The same submission through REST is the same order.
    const replay = await placeOrder(server, bank.token, restBody(input))
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual(rest.body)
  })

  it('lists the same orders', async () => {
    await placeOrder(server, bank.token, { symbol: 'BTC-USDT', side: 'buy', type: 'market', quantity: '1' })
    const rest = await server.request('GET', `${ORDERS}?order_by=-created_at&limit=5`, { token: bank.token })
    const gql = await server.graphql(OrdersDocument, { orderBy: { field: 'created_at', direction: 'desc' }, limit: 5 }, { token: bank.token })
    expect(gql.data!.orders).toEqual({ total: rest.body.total, offset: 0, limit: 5, items: rest.body.items.map(orderAsGraphQL) })
    const cancelledRest = await server.request('GET', `${ORDERS}?status=cancelled`, { token: bank.token })
    const cancelledGql = await server.graphql(OrdersDocument, { filter: { status: ['cancelled'] } }, { token: bank.token })
    expect(cancelledGql.data!.orders.items).toEqual(cancelledRest.body.items.map(orderAsGraphQL))
  })

  it('cancels on one face and shows it on the other', async () => {
    const created = await placeOrder(server, bank.token, { symbol: 'EUR-IRR', side: 'buy', type: 'limit', quantity: '100', price: '1210000' })
    const cancelled = await server.graphql(CancelOrderDocument, { uid: created.body.uid }, { token: bank.token })
    const rest = await server.request('GET', `${ORDERS}/${created.body.uid}`, { token: bank.token })
    expect(rest.body.status).toBe('cancelled')
    expect(cancelled.data!.cancelOrder).toEqual(orderAsGraphQL(rest.body))
    const restAgain = await server.request('DELETE', `${ORDERS}/${created.body.uid}`, { token: bank.token })
    const gqlAgain = await server.graphql(CancelOrderDocument, { uid: created.body.uid }, { token: bank.token })
    expect(restAgain.status).toBe(409)
    expect(gqlAgain.errors![0]).toMatchObject({ message: restAgain.body.message, extensions: { code: 'CONFLICT', error: 'conflict' } })
  })

  it('answers the same invalid input with the same detail', async () => {
    const cases: CreateOrderInput[] = [
      { symbol: 'XAU-IRR', side: 'buy', type: 'limit', quantity: '1', price: '1' },
      { symbol: 'ETH-IRT', side: 'sell', type: 'limit', quantity: '0.001', price: '1500' },
      { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '55', price: '990001' },
      { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1200000' },
      { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', quantity: '0.00000001', price: '64000' },
      { symbol: 'BTC-USDT', side: 'sell', type: 'limit', quantity: '-1', price: '.001' },
      { symbol: 'CNY-IRR', side: 'sell', type: 'limit', quantity: '150', price: '145000', clientOrderId: 'with space' },
    ]
    for (const input of cases) {
      const rest = await placeOrder(server, bank.token, restBody(input))
      const gql = await server.graphql(CreateOrderDocument, { input }, { token: bank.token })
      expect(rest.status, JSON.stringify(input)).toBe(422)
      expect(gql.data).toBeNull()
      expect(gql.errors![0]!.extensions.code).toBe('BAD_USER_INPUT')
      expect(gql.errors![0]!.extensions.detail, JSON.stringify(input)).toEqual(rest.body.detail)
    }
  })

  it('answers access errors alike', async () => {
    const theirs = await placeOrder(server, otherBank.token, { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1050000' })
    const rest = await server.request('GET', `${ORDERS}/${theirs.body.uid}`, { token: bank.token })
    const gql = await server.graphql(OrderDocument, { uid: theirs.body.uid }, { token: bank.token })
    expect(rest.status).toBe(403)
    expect(gql.errors![0]).toMatchObject({ message: rest.body.message, extensions: { code: 'FORBIDDEN', error: rest.body.error } })

    const reader = await createTestClient(server, { scopes: ['orders:read', 'symbols:read'] })
    const input: CreateOrderInput = { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1050000' }
    const restDenied = await placeOrder(server, reader.token, restBody(input))
    const gqlDenied = await server.graphql(CreateOrderDocument, { input }, { token: reader.token })
    expect(restDenied.status).toBe(403)
    expect(gqlDenied.errors![0]).toMatchObject({ message: restDenied.body.message, extensions: { code: 'FORBIDDEN' } })

    const missing = randomUUID()
    const restMissing = await server.request('DELETE', `${ORDERS}/${missing}`, { token: bank.token })
    const gqlMissing = await server.graphql(CancelOrderDocument, { uid: missing }, { token: bank.token })
    expect(restMissing.status).toBe(404)
    expect(gqlMissing.errors![0]).toMatchObject({ message: restMissing.body.message, extensions: { code: 'NOT_FOUND' } })
  })
})
