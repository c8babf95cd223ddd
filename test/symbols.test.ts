import { randomUUID } from 'node:crypto'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { upsertCurrency } from '../src/modules/exchange/symbols/currencies.repository.ts'
import { demoCurrencies, demoSymbols } from '../src/modules/exchange/symbols/demo-data.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setReferencePrice } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { upsertSymbol } from '../src/modules/exchange/symbols/symbols.repository.ts'
import { SymbolDocument, SymbolsDocument, SymbolsWithCurrenciesDocument } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const SYMBOLS = '/api/exchange/v1/symbols'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const HEAD_KEYS = [
  'id',
  'revision_id',
  'uid',
  'created_at',
  'updated_at',
  'is_deleted',
  'meta_data',
  'user_id',
  'symbol',
  'price_precision',
  'quantity_precision',
  'min_order_quantity',
  'tick_size',
  'daily_fluctuation_price_limit_percent',
  // Beyond the reference: the fee rates of DESIGN §14.
  'maker_fee_percent',
  'taker_fee_percent',
  // Beyond the reference: the size limits of DESIGN §22.
  'max_order_quantity',
  'min_notional',
  'description',
  'is_active',
]
const ITEM_KEYS = [...HEAD_KEYS.slice(2), 'properties']
const SORTED_NAMES = demoSymbols.map((s) => s.symbol).sort()

let server: TestServer
let bank: TestClient
let noScope: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
  noScope = await createTestClient(server, { scopes: ['orders:read'] })
})
afterAll(async () => {
  await server?.close()
})

const list = (query = '', token = bank.token) => server.request('GET', `${SYMBOLS}${query}`, { token })

/** Changes made straight in the database reach the symbol list cache by its poll; tests check at once. */
const catalogChanged = () => server.services.symbolsCache.check()

describe('GET /api/exchange/v1/symbols', () => {
  it('answers the reference list envelope with exactly the 20 heads, in order', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['heads', 'items', 'total', 'offset', 'limit'])
    expect(Object.keys(res.body.heads)).toEqual(HEAD_KEYS)
    expect(res.body.heads.id).toEqual({ en: 'ID' })
    expect(res.body.heads.revision_id).toEqual({ en: 'Revision ID' })
    expect(res.body.heads.uid).toEqual({ en: 'UID' })
    expect(res.body.heads.daily_fluctuation_price_limit_percent).toEqual({ en: 'Daily Fluctuation Price Limit Percent' })
    for (const head of Object.values(res.body.heads)) expect(Object.keys(head as object)).toEqual(['en'])
    expect(res.body.total).toBe(8)
    expect(res.body.offset).toBe(0)
    expect(res.body.limit).toBe(100)
    expect(res.body.items).toHaveLength(8)
  })

  it('renders each symbol with every 2.3 field in order, and both currencies as 2.4 properties', async () => {
    const res = await list('?symbol=USD-IRR')
    expect(res.body.total).toBe(1)
    const [item] = res.body.items
    expect(Object.keys(item)).toEqual(ITEM_KEYS)
    expect(item).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      meta_data: null,
      user_id: 'system',
      symbol: 'USD-IRR',
      price_precision: 0,
      quantity_precision: -1,
      min_order_quantity: '100',
      tick_size: '10',
      daily_fluctuation_price_limit_percent: '5',
      maker_fee_percent: '0',
      taker_fee_percent: '0',
      max_order_quantity: null,
      min_notional: null,
      description: 'US Dollar against Iranian Rial',
      is_active: true,
      properties: {
        USD: {
          name: { fa: 'دلار آمریکا', en: 'US Dollar' },
          symbol: 'USD',
          precision: 2,
          icon: 'https://static.exchange-center.ir/currencies/usd.svg',
          is_crypto: false,
          color: '#3c3b6e',
          unit_value_irr: 1050000,
        },
        IRR: {
          name: { fa: 'ریال ایران', en: 'Iranian Rial' },
          symbol: 'IRR',
          precision: 0,
          icon: 'https://static.exchange-center.ir/currencies/irr.svg',
          is_crypto: false,
          color: '#239f40',
          unit_value_irr: 1,
        },
      },
    })
    expect(Object.keys(item.properties)).toEqual(['USD', 'IRR'])
    expect(Object.keys(item.properties.USD)).toEqual(['name', 'symbol', 'precision', 'icon', 'is_crypto', 'color', 'unit_value_irr'])
  })

  it('renders unit_value_irr beyond 32 bits as an exact integer', async () => {
    const res = await list('?symbol=BTC-USDT')
    expect(res.body.items[0].properties.BTC.unit_value_irr).toBe(98_000_000_000)
    expect(res.text).toContain('"unit_value_irr":98000000000')
  })

  it('renders decimals exactly as stored, trailing zeros included, and timestamps with microseconds', async () => {
    const { db } = server.services
    await upsertSymbol(db, {
      uid: randomUUID(),
      user_id: 'operator',
      meta_data: { note: 'test' },
      symbol: 'AED-USD',
      base: 'AED',
      quote: 'USD',
      price_precision: 4,
      quantity_precision: 3,
      min_order_quantity: '0.0100',
      tick_size: '0.0005',
      daily_fluctuation_price_limit_percent: '2.50',
      description: 'Test pair',
      is_active: true,
    })
    await sql`update symbols set created_at = '2026-11-25 21:30:00.123456', updated_at = '2026-11-25 21:30:00.000001' where symbol = 'AED-USD'`.execute(db)
    await catalogChanged()
    try {
      const res = await list('?symbol=AED-USD')
      expect(res.body.items[0]).toMatchObject({
        created_at: '2026-11-25T21:30:00.123456',
        updated_at: '2026-11-25T21:30:00.000001',
        meta_data: { note: 'test' },
        user_id: 'operator',
        min_order_quantity: '0.0100',
        tick_size: '0.0005',
        daily_fluctuation_price_limit_percent: '2.50',
      })
      expect(res.text).toContain('"min_order_quantity":"0.0100"')
    } finally {
      await db.deleteFrom('symbols').where('symbol', '=', 'AED-USD').execute()
      await catalogChanged()
    }
  })

  it('filters by symbol (any case) and by is_active', async () => {
    expect((await list('?symbol=usd-irr')).body.items.map((i: any) => i.symbol)).toEqual(['USD-IRR'])
    expect((await list('?symbol=XXX-YYY')).body).toMatchObject({ items: [], total: 0 })
    const inactive = await list('?is_active=false')
    expect(inactive.body.items.map((i: any) => i.symbol)).toEqual(['ETH-IRT'])
    expect(inactive.body.total).toBe(1)
    const active = await list('?is_active=true')
    expect(active.body.total).toBe(7)
    expect(active.body.items.every((i: any) => i.is_active)).toBe(true)
  })

  it('orders by a field, descending with a minus', async () => {
    expect((await list('?order_by=symbol')).body.items.map((i: any) => i.symbol)).toEqual(SORTED_NAMES)
    expect((await list('?order_by=-symbol')).body.items.map((i: any) => i.symbol)).toEqual([...SORTED_NAMES].reverse())
    const byTick = (await list('?order_by=-tick_size')).body.items.map((i: any) => i.tick_size)
    expect(byTick[0]).toBe('1000') // numeric order, not text order ("5" > "1000" as text)
  })

  it('pages, with total counting every match rather than the page', async () => {
    const page = await list('?order_by=symbol&offset=2&limit=3')
    expect(page.body).toMatchObject({ total: 8, offset: 2, limit: 3 })
    expect(page.body.items.map((i: any) => i.symbol)).toEqual(SORTED_NAMES.slice(2, 5))
    const beyond = await list('?offset=50&limit=10')
    expect(beyond.body).toMatchObject({ items: [], total: 8, offset: 50, limit: 10 })
    const filteredBeyond = await list('?is_active=true&offset=7')
    expect(filteredBeyond.body).toMatchObject({ items: [], total: 7 })
  })

  it('filters by datetime ranges given with a zone', async () => {
    const future = await list('?created_at_from=2999-01-01T00:00:00Z')
    expect(future.body).toMatchObject({ items: [], total: 0 })
    const past = await list('?created_at_from=2000-01-01T00:00:00%2B03:30&updated_at_to=2999-12-31T23:59:59.999999Z')
    expect(past.body.total).toBe(8)
    const before = await list('?created_at_to=2000-01-01T00:00:00Z')
    expect(before.body.total).toBe(0)
  })

  it('rejects limit over 100, a negative offset, bad datetimes and unknown parameters as the reference 422 items', async () => {
    expect((await list('?limit=101')).body).toEqual({
      detail: [
        {
          type: 'value_error.number.not_le',
          loc: ['query', 'limit'],
          msg: 'ensure this value is less than or equal to 100',
          input: '101',
          ctx: { limit_value: 100 },
        },
      ],
    })
    expect((await list('?offset=-1')).body).toEqual({
      detail: [
        {
          type: 'value_error.number.not_ge',
          loc: ['query', 'offset'],
          msg: 'ensure this value is greater than or equal to 0',
          input: '-1',
          ctx: { limit_value: 0 },
        },
      ],
    })
    for (const bad of ['2026-01-01', '2026/01/01T00:00:00Z', '2026-01-01T00:00:00', 'yesterday']) {
      const res = await list(`?created_at_from=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        detail: [{ type: 'value_error.datetime', loc: ['query', 'created_at_from'], msg: 'invalid datetime format', input: bad }],
      })
    }
    const extra = await list('?page=2')
    expect(extra.status).toBe(422)
    expect(extra.body).toEqual({ detail: [{ type: 'value_error.extra', loc: ['query', 'page'], msg: 'extra fields not permitted' }] })
  })

  it('reports every bad parameter at once', async () => {
    const res = await list('?limit=0&is_active=maybe&order_by=price&foo=1')
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
      ['value_error.number.not_ge', ['query', 'limit']],
      ['type_error.enum', ['query', 'order_by']],
      ['type_error.bool', ['query', 'is_active']],
      ['value_error.extra', ['query', 'foo']],
    ])
  })

  it('requires a token and the symbols:read scope', async () => {
    const anonymous = await server.request('GET', SYMBOLS)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' })
    const denied = await list('', noScope.token)
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({
      message: 'Access denied: requires symbols:read',
      error: 'permission_denied',
      detail: 'Access denied: requires symbols:read',
    })
    const wildcard = await createTestClient(server, { scopes: ['*:read'] })
    expect((await list('', wildcard.token)).status).toBe(200)
  })
})

describe('GET /api/exchange/v1/symbols/:symbol', () => {
  it('answers the same record as the list', async () => {
    const listed = (await list('?symbol=BTC-USDT')).body.items[0]
    const res = await server.request('GET', `${SYMBOLS}/BTC-USDT`, { token: bank.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(listed)
    expect((await server.request('GET', `${SYMBOLS}/btc-usdt`, { token: bank.token })).body).toEqual(listed)
  })

  it('answers an inactive symbol, flagged', async () => {
    const res = await server.request('GET', `${SYMBOLS}/ETH-IRT`, { token: bank.token })
    expect(res.status).toBe(200)
    expect(res.body.is_active).toBe(false)
  })

  it('answers 404 for an unknown or deleted symbol', async () => {
    const res = await server.request('GET', `${SYMBOLS}/NOPE-IRR`, { token: bank.token })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'Symbol NOPE-IRR not found', error: 'not_found', detail: 'Symbol NOPE-IRR not found' })
    expect((await server.request('GET', `${SYMBOLS}/${'X'.repeat(300)}`, { token: bank.token })).status).toBe(404)
    const { db } = server.services
    await db.updateTable('symbols').set({ is_deleted: true }).where('symbol', '=', 'AED-IRR').execute()
    await catalogChanged()
    try {
      expect((await server.request('GET', `${SYMBOLS}/AED-IRR`, { token: bank.token })).status).toBe(404)
      const listed = await list()
      expect(listed.body.total).toBe(7)
      expect(listed.body.items.map((i: any) => i.symbol)).not.toContain('AED-IRR')
    } finally {
      await db.updateTable('symbols').set({ is_deleted: false }).where('symbol', '=', 'AED-IRR').execute()
      await catalogChanged()
    }
  })

  it('requires symbols:read', async () => {
    const res = await server.request('GET', `${SYMBOLS}/USD-IRR`, { token: noScope.token })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('Access denied: requires symbols:read')
  })
})

describe('GraphQL symbols', () => {
  it('lists with camelCase fields, Decimal strings and DateTime text', async () => {
    const res = await server.graphql(SymbolsDocument, { filter: { symbol: 'USD-IRR' } }, { token: bank.token })
    expect(res.errors).toBeUndefined()
    const page = res.data!.symbols
    expect(page).toMatchObject({ total: 1, offset: 0, limit: 100 })
    expect(page.items[0]).toMatchObject({
      symbol: 'USD-IRR',
      pricePrecision: 0,
      quantityPrecision: -1,
      minOrderQuantity: '100',
      tickSize: '10',
      dailyFluctuationPriceLimitPercent: '5',
      isActive: true,
      createdAt: expect.stringMatching(TIMESTAMP),
      properties: [
        { symbol: 'USD', name: { fa: 'دلار آمریکا', en: 'US Dollar' }, unitValueIrr: '1050000', isCrypto: false, precision: 2 },
        { symbol: 'IRR', unitValueIrr: '1' },
      ],
    })
  })

  it('reports the same detail as REST for the same mistake', async () => {
    const res = await server.graphql(SymbolsDocument, { limit: 101, offset: -1 }, { token: bank.token })
    expect(res.data).toBeNull()
    expect(res.errors).toHaveLength(1)
    expect(res.errors![0]!.extensions.code).toBe('BAD_USER_INPUT')
    const rest = await list('?limit=101&offset=-1')
    expect(res.errors![0]!.extensions.detail).toEqual(rest.body.detail)
    const badDate = await server.graphql(SymbolsDocument, { filter: { createdAtFrom: '2026-01-01' } }, { token: bank.token })
    expect(badDate.errors![0]!.extensions.detail).toEqual((await list('?created_at_from=2026-01-01')).body.detail)
  })

  it('answers symbol(symbol) with base, quote, reference price and band; null when absent', async () => {
    const before = await server.graphql(SymbolDocument, { symbol: 'USD-IRR' }, { token: bank.token })
    expect(before.data!.symbol).toMatchObject({ base: { symbol: 'USD' }, quote: { symbol: 'IRR' }, referencePrice: null, priceBand: null })
    await setReferencePrice(server.services.db, 'USD-IRR', '1050000')
    try {
      const after = await server.graphql(SymbolDocument, { symbol: 'usd-irr' }, { token: bank.token })
      expect(after.data!.symbol).toMatchObject({ referencePrice: '1050000', priceBand: { min: '997500', max: '1102500' } })
    } finally {
      await server.services.db.updateTable('symbols').set({ reference_price: null }).where('symbol', '=', 'USD-IRR').execute()
    }
    const absent = await server.graphql(SymbolDocument, { symbol: 'NOPE-IRR' }, { token: bank.token })
    expect(absent.errors).toBeUndefined()
    expect(absent.data).toEqual({ symbol: null })
  })

  it('is FORBIDDEN without symbols:read', async () => {
    const res = await server.graphql(SymbolsDocument, {}, { token: noScope.token })
    expect(res.errors![0]!.message).toBe('Access denied: requires symbols:read')
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', error: 'permission_denied' })
  })
})

describe('query cost', () => {
  it('costs the same few statements for 10 or 100 symbols with their currencies, on both faces', async () => {
    const { db } = server.services
    const codes = Array.from({ length: 12 }, (_, i) => `T${String(i).padStart(2, '0')}`)
    for (const code of codes) {
      await upsertCurrency(db, { ...demoCurrencies[2]!, code, name_en: `Test ${code}`, icon: `https://example.test/${code}.svg` })
    }
    const pairs = codes.flatMap((base) => codes.filter((quote) => quote !== base).map((quote) => [base, quote] as const))
    for (const [base, quote] of pairs.slice(0, 120)) {
      await upsertSymbol(db, {
        uid: randomUUID(),
        user_id: 'system',
        meta_data: null,
        symbol: `${base}-${quote}`,
        base,
        quote,
        price_precision: 2,
        quantity_precision: 0,
        min_order_quantity: '1',
        tick_size: '0.01',
        daily_fluctuation_price_limit_percent: '5',
        description: '',
        is_active: true,
      })
    }
    await catalogChanged()
    const counted = async (call: () => Promise<unknown>) => {
      let statements = 0
      await withoutBackgroundPolls(server.services, async () => {
        const before = server.services.database.queryCount()
        await call()
        statements = server.services.database.queryCount() - before
      })
      return statements
    }

    const rest10 = await counted(async () => expect((await list('?limit=10')).body.items).toHaveLength(10))
    const rest100 = await counted(async () => {
      const res = await list('?limit=100')
      expect(res.body.items).toHaveLength(100)
      expect(res.body.total).toBe(128)
    })
    // Every symbol of the filter (128) with the total, then their currencies; the page of 100 is a slice of that read.
    expect(rest10).toBe(2)
    expect(rest100).toBe(0)

    const gql = (limit: number) => async () => {
      const res = await server.graphql(SymbolsWithCurrenciesDocument, { limit }, { token: bank.token })
      expect(res.errors).toBeUndefined()
      expect(res.data!.symbols.items).toHaveLength(limit)
      expect(res.data!.symbols.items.every((s) => s.properties.length === 2 && s.base.symbol === s.symbol.split('-')[0])).toBe(true)
    }
    // The REST calls above cached these pages: changing the catalog makes GraphQL pay for them again.
    await upsertCurrency(db, { ...demoCurrencies[2]!, code: 'T00', name_en: 'Test T00 renamed', icon: 'https://example.test/T00.svg' })
    await catalogChanged()
    const gql10 = await counted(gql(10))
    const gql100 = await counted(gql(100))
    // The same two: the currencies feed the CurrencyProperty loader; then a slice of that read.
    expect(gql10).toBe(2)
    expect(gql100).toBe(0)
    // Cached answers cost no statement on either face.
    expect(await counted(gql(100))).toBe(0)
    expect(await counted(async () => expect((await list('?limit=100')).body.items).toHaveLength(100))).toBe(0)
  })
})
