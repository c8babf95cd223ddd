import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { failure, runCommand } from '../src/app/cli-commands.ts'
import { setReferencePrice } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// Size limits per symbol (DESIGN §22; docs/api.md, "Order limits"): set by the CLI, on the symbol
// record of both faces, and checked in admission, so placing, the dry run and amends agree.

let server: TestServer
let bank: TestClient
beforeAll(async () => {
  server = await startTestServer()
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

/** `symbol set-limits …` as the operator runs it, on the server's database. */
async function cli(...args: string[]) {
  let stdout = ''
  try {
    await runCommand(server.config, server.services.db, args, (text) => void (stdout += text))
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    return { stdout, ...failure(error) }
  }
}

/** A market of its own with both limits, seen by the symbol caches at once. */
async function limitedMarket(maxQty = '10', minNotional = '50') {
  const symbol = await createMarket(server.services.db)
  const set = await cli('symbol', 'set-limits', symbol, '--max-qty', maxQty, '--min-notional', minNotional)
  expect(set.code, set.stderr).toBe(0)
  await server.services.symbolsCache.check()
  return symbol
}

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })
const notLe = (input: string, limit: string) => ({
  type: 'value_error.number.not_le',
  loc: ['body', 'quantity'],
  msg: `ensure this value is less than or equal to ${limit}`,
  input,
  ctx: { limit_value: limit },
})
const belowNotional = (symbol: string, field: 'quantity' | 'price', input: string, min: string) => ({
  type: 'value_error.min_notional',
  loc: ['body', field],
  msg: `ensure price × quantity is at least ${min}, the minimum notional of ${symbol}`,
  input,
  ctx: { min_notional: min },
})

describe('symbol set-limits', () => {
  it('sets, keeps and clears each limit, and refuses bad values naming the flag', async () => {
    const symbol = await createMarket(server.services.db)
    expect(JSON.parse((await cli('symbol', 'set-limits', symbol.toLowerCase(), '--max-qty', '1000.5')).stdout)).toEqual({
      symbol,
      max_order_quantity: '1000.5',
      min_notional: null,
    })
    expect(JSON.parse((await cli('symbol', 'set-limits', symbol, '--min-notional', '25')).stdout)).toEqual({
      symbol,
      max_order_quantity: '1000.5',
      min_notional: '25',
    })
    expect(JSON.parse((await cli('symbol', 'set-limits', symbol, '--max-qty', 'none')).stdout)).toEqual({
      symbol,
      max_order_quantity: null,
      min_notional: '25',
    })

    const zero = await cli('symbol', 'set-limits', symbol, '--max-qty', '0')
    expect(zero.code).toBe(1)
    expect(zero.stderr).toContain('--max-qty: a limit is greater than 0 (none: no limit)')
    const text = await cli('symbol', 'set-limits', symbol, '--min-notional', '1e5')
    expect(text.code).toBe(1)
    expect(text.stderr).toContain('--min-notional: a limit is a positive decimal, or none')
    const nothing = await cli('symbol', 'set-limits', symbol)
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain('--max-qty: give --max-qty, --min-notional or both (none clears one)')
    const unknown = await cli('symbol', 'set-limits', 'NOPE-IRR', '--max-qty', '1')
    expect(unknown).toMatchObject({ code: 1, stderr: 'Symbol NOPE-IRR does not exist\n' })
    const noSymbol = await cli('symbol', 'set-limits', '--max-qty', '1')
    expect(noSymbol.code).toBe(1)
    expect(noSymbol.stderr).toContain('SYMBOL: ')
    // Refused values changed nothing.
    const row = await server.services.db.selectFrom('symbols').select(['max_order_quantity', 'min_notional']).where('symbol', '=', symbol).executeTakeFirst()
    expect(row).toEqual({ max_order_quantity: null, min_notional: '25' })
  })

  it('shows on the symbol record of both faces, and the cached symbol lists follow a change', async () => {
    const symbol = await createMarket(server.services.db)
    const rest = async () => (await server.request('GET', `/api/exchange/v1/symbols?symbol=${symbol}`, { token: bank.token })).body.items[0]
    const graphql = async () =>
      (await server.graphql<any, any>(`query ($s: String!) { symbol(symbol: $s) { maxOrderQuantity minNotional } }`, { s: symbol }, { token: bank.token })).data
        .symbol
    const before = await rest()
    expect(before).toMatchObject({ max_order_quantity: null, min_notional: null })
    expect(Object.keys(before).slice(-5)).toEqual(['max_order_quantity', 'min_notional', 'description', 'is_active', 'properties'])
    expect(await graphql()).toEqual({ maxOrderQuantity: null, minNotional: null })

    await cli('symbol', 'set-limits', symbol, '--max-qty', '500', '--min-notional', '10.5')
    await server.services.symbolsCache.check()
    expect(await rest()).toMatchObject({ max_order_quantity: '500', min_notional: '10.5' })
    expect((await server.request('GET', `/api/exchange/v1/symbols/${symbol}`, { token: bank.token })).body).toMatchObject({
      max_order_quantity: '500',
      min_notional: '10.5',
    })
    expect(await graphql()).toEqual({ maxOrderQuantity: '500', minNotional: '10.5' })
  })
})

describe('orders against the limits', () => {
  it('accepts exactly the maximum quantity and refuses one step more (REST, dry run and GraphQL alike)', async () => {
    const symbol = await limitedMarket('10', '1')
    expect((await placeOrder(server, bank.token, limit(symbol, 'buy', '10', '1.00'))).status).toBe(201)
    const over = limit(symbol, 'buy', '10.01', '1.00')
    const body = { detail: [notLe('10.01', '10')] }
    const placed = await placeOrder(server, bank.token, over)
    expect(placed.status).toBe(422)
    expect(placed.body).toEqual(body)
    const dry = await server.request('POST', `${ORDERS}/validate`, { token: bank.token, body: over })
    expect(dry.status).toBe(422)
    expect(dry.body).toEqual(body)
    const graphql = await server.graphql<any, any>(
      `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }`,
      { input: { symbol, side: 'buy', type: 'limit', quantity: '10.01', price: '1.00' } },
      { token: bank.token },
    )
    expect(graphql.data).toBeNull()
    expect(graphql.errors).toHaveLength(1)
    expect(graphql.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', error: 'validation_error', detail: body.detail })
  })

  it('accepts exactly the minimum notional and refuses a cent less, beside the other rules broken', async () => {
    const symbol = await limitedMarket('100', '50')
    expect((await placeOrder(server, bank.token, limit(symbol, 'sell', '5', '10.00'))).status).toBe(201)
    const below = await placeOrder(server, bank.token, limit(symbol, 'sell', '4.99', '10.00'))
    expect(below.status).toBe(422)
    expect(below.body).toEqual({ detail: [belowNotional(symbol, 'quantity', '4.99', '50')] })
    // Every broken rule at once, in field order: the quantity's own, its notional, then the price's.
    const many = await placeOrder(server, bank.token, limit(symbol, 'sell', '0.001', '10.005'))
    expect(many.status).toBe(422)
    expect(many.body.detail.map((d: { type: string; loc: string[] }) => `${d.loc[1]} ${d.type}`)).toEqual([
      'quantity value_error.number.not_ge',
      'quantity value_error.decimal.max_places',
      'quantity value_error.min_notional',
      'price value_error.number.not_multiple',
      'price value_error.decimal.max_places',
    ])
    const dry = await server.request('POST', `${ORDERS}/validate`, { token: bank.token, body: limit(symbol, 'sell', '4.99', '10.00') })
    expect(dry.body).toEqual(below.body)
  })

  it('values a market order at the reference price, and checks none without one', async () => {
    const symbol = await limitedMarket('100', '50')
    const market = (quantity: string) => ({ symbol, side: 'sell', type: 'market', quantity })
    // No reference price: nothing to value it at; it trades (here: nothing to trade with) bounded by its hold.
    const unvalued = await placeOrder(server, bank.token, market('1'))
    expect(unvalued.status).toBe(201)
    expect(unvalued.body).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled' })
    await setReferencePrice(server.services.db, symbol, '20')
    await server.services.symbolsCache.check()
    const refused = await placeOrder(server, bank.token, market('2.49'))
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ detail: [belowNotional(symbol, 'quantity', '2.49', '50')] })
    expect((await placeOrder(server, bank.token, market('2.5'))).status).toBe(201)
    const tooMany = await placeOrder(server, bank.token, market('100.01'))
    expect(tooMany.body).toEqual({ detail: [notLe('100.01', '100')] })
  })

  it('holds an amend to both limits: a larger quantity, or a lower price under the notional', async () => {
    const symbol = await limitedMarket('10', '50')
    const resting = await placeOrder(server, bank.token, limit(symbol, 'buy', '5', '10.00'))
    expect(resting.status).toBe(201)
    const uid = resting.body.uid
    const amend = (body: unknown) => server.request('PATCH', `${ORDERS}/${uid}`, { token: bank.token, body })

    const larger = await amend({ quantity: '10.5' })
    expect(larger.status).toBe(422)
    expect(larger.body).toEqual({ detail: [notLe('10.5', '10')] })
    const cheaper = await amend({ price: '9.99' })
    expect(cheaper.status).toBe(422)
    expect(cheaper.body).toEqual({ detail: [belowNotional(symbol, 'price', '9.99', '50')] })
    const smaller = await amend({ quantity: '4' })
    expect(smaller.body).toEqual({ detail: [belowNotional(symbol, 'quantity', '4', '50')] })
    const both = await amend({ quantity: '4', price: '12.50' })
    expect(both.status).toBe(200)
    expect(both.body).toMatchObject({ quantity: '4', price: '12.50', status: 'open' })
    const graphql = await server.graphql<any, any>(
      `mutation ($uid: ID!, $input: AmendOrderInput!) { amendOrder(uid: $uid, input: $input) { uid } }`,
      { uid, input: { price: '12.49' } },
      { token: bank.token },
    )
    expect(graphql.errors![0]!.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      error: 'validation_error',
      detail: [belowNotional(symbol, 'price', '12.49', '50')],
    })
  })

  it('applies a limit changed after the caches were filled, under the book lock', async () => {
    const symbol = await limitedMarket('10', '1')
    // The caches still hold max 10 when the pass reads max 5 under the lock.
    await server.services.db.updateTable('symbols').set({ max_order_quantity: '5' }).where('symbol', '=', symbol).execute()
    const refused = await placeOrder(server, bank.token, limit(symbol, 'buy', '6', '1.00'))
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ detail: [notLe('6', '5')] })
    // Cleared: no limit at all.
    await cli('symbol', 'set-limits', symbol, '--max-qty', 'none', '--min-notional', 'none')
    await server.services.symbolsCache.check()
    expect((await placeOrder(server, bank.token, limit(symbol, 'buy', '1000', '0.01'))).status).toBe(201)
  })
})
