import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { accountFees, checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { setSymbolFees } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket, type MarketRules } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const API = '/api/exchange/v1'

let server: TestServer
let admin: TestClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false })
})
afterAll(async () => {
  await server?.close()
})

/** A market with fees (maker 0.1 %, taker 0.2 %) and two banks funded by operators' deposits only. */
async function market(funds: { seller: Record<string, string>; buyer: Record<string, string> }, rules: Partial<MarketRules> = {}) {
  const symbol = await createMarket(server.services.db, rules)
  const [base, quote] = symbol.split('-') as [string, string]
  await setSymbolFees(server.services.db, symbol, '0.1', '0.2')
  const [seller, buyer] = await Promise.all([createTestClient(server, { funded: false }), createTestClient(server, { funded: false })])
  const codes: Record<string, string> = { base, quote }
  for (const [client, amounts] of [
    [seller, funds.seller],
    [buyer, funds.buyer],
  ] as const) {
    for (const [which, amount] of Object.entries(amounts)) {
      const res = await server.request('POST', `${API}/transfers`, {
        token: admin.token,
        body: { tenant_id: client.tenantId, currency: codes[which], amount, kind: 'deposit', reference: `fund-${client.tenantId}-${which}` },
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
    }
  }
  return { symbol, base, quote, seller, buyer }
}

const account = async (client: TestClient, currency: string) => {
  const res = await server.request('GET', `${API}/accounts/${currency}`, { token: client.token })
  expect(res.status).toBe(200)
  const { balance, hold, available } = res.body
  return { balance, hold, available }
}

describe('holds and settlement', () => {
  it('holds what an order may spend, settles each fill with its fees, and releases the rest', async () => {
    const { symbol, base, quote, seller, buyer } = await market({ seller: { base: '5' }, buyer: { quote: '100' } })
    const ask = await placeOrder(server, seller.token, { symbol, side: 'sell', type: 'limit', quantity: '2', price: '10.00' })
    expect(ask.status).toBe(201)
    expect(await account(seller, base)).toEqual({ balance: '5.00', hold: '2.00', available: '3.00' })

    // 3 at 10.50 holds 31.50 + the fee at the higher rate (0.2 % → 0.063 → 0.07): 31.57.
    const bid = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'limit', quantity: '3', price: '10.50' })
    expect(bid.body).toMatchObject({ status: 'partially_filled', filled_quantity: '2.00', average_price: '10.00' })
    // The fill: 2 × 10.00 = 20.00; the buyer (taker, 0.2 %) pays 0.04 on top, the seller (maker, 0.1 %) receives 20.00 − 0.02.
    expect(await account(buyer, quote)).toEqual({ balance: '79.96', hold: '11.53', available: '68.43' })
    expect(await account(buyer, base)).toEqual({ balance: '2.00', hold: '0.00', available: '2.00' })
    expect(await account(seller, base)).toEqual({ balance: '3.00', hold: '0.00', available: '3.00' })
    expect(await account(seller, quote)).toEqual({ balance: '19.98', hold: '0.00', available: '19.98' })

    // The ledger says why each balance moved, with the order and the trade.
    const ledger = (await server.request('GET', `${API}/ledger?order_uid=${bid.body.uid}&order_by=created_at`, { token: buyer.token })).body
    // Entries of one step share a time and list by account (base before quote here), each in order.
    expect(ledger.items.map((e: Record<string, string>) => [e.kind, e.currency, e.amount, e.balance_after])).toEqual([
      ['trade', base, '2.00', '2.00'],
      ['trade', quote, '-20.00', '80.00'],
      ['fee', quote, '-0.04', '79.96'],
    ])
    expect(new Set(ledger.items.map((e: Record<string, string>) => e.trade_uid)).size).toBe(1)

    // Cancelling gives back what the rest held.
    expect((await server.request('DELETE', `${ORDERS}/${bid.body.uid}`, { token: buyer.token })).status).toBe(200)
    expect(await account(buyer, quote)).toEqual({ balance: '79.96', hold: '0.00', available: '79.96' })
    expect(await accountFees(server.services.db)).toContainEqual({ currency: quote, amount: '0.06' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('refuses an order the tenant cannot pay for with 422, storing nothing; the dry run and GraphQL say the same', async () => {
    const { symbol, quote, buyer } = await market({ seller: {}, buyer: { quote: '10' } })
    const body = { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' }
    const detail = [
      {
        type: 'value_error.insufficient_balance',
        loc: ['body', 'quantity'],
        msg: `insufficient balance: ${quote} available 10.00, required 10.02`,
        input: '1',
        ctx: { currency: quote, available: '10.00', required: '10.02' },
      },
    ]
    const refused = await placeOrder(server, buyer.token, body)
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ detail })
    const dryRun = await server.request('POST', `${ORDERS}/validate`, { token: buyer.token, body })
    expect(dryRun.status).toBe(422)
    expect(dryRun.body).toEqual({ detail })
    const viaGraphql = await server.graphql(
      `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }`,
      { input: { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' } },
      { token: buyer.token },
    )
    expect(viaGraphql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail })
    expect((await server.request('GET', `${ORDERS}?symbol=${symbol}`, { token: buyer.token })).body.total).toBe(0)
    expect(await account(buyer, quote)).toEqual({ balance: '10.00', hold: '0.00', available: '10.00' })
    // What it can pay for goes through.
    expect((await placeOrder(server, buyer.token, { ...body, quantity: '0.99' })).status).toBe(201)
  })

  it('stops a market buy without a price band where its funds end, and cancels the rest unfilled', async () => {
    const { symbol, quote, base, seller, buyer } = await market({ seller: { base: '10' }, buyer: { quote: '25' } })
    for (const price of ['10.00', '12.00']) {
      expect((await placeOrder(server, seller.token, { symbol, side: 'sell', type: 'limit', quantity: '2', price })).status).toBe(201)
    }
    const buy = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'market', quantity: '4' })
    // 2 × 10.00 + 0.04 fee, then what 4.96 still pays at 12.00 with its fee: 0.41 (4.92 + 0.01).
    expect(buy.body).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '2.41' })
    const spent = await account(buyer, quote)
    expect(spent).toEqual({ balance: '0.03', hold: '0.00', available: '0.03' })
    expect(await account(buyer, base)).toEqual({ balance: '2.41', hold: '0.00', available: '2.41' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('fills a market buy its funds bound in whole lots of the symbol, never an odd lot', async () => {
    // Lots of 100 (quantity_precision -2, as CNY-IRR), whole prices, no band: the buy holds all it has.
    const rules = { price_precision: 0, quantity_precision: -2, min_order_quantity: '1000', tick_size: '1' }
    const { symbol, base, quote, seller, buyer } = await market({ seller: { base: '5000' }, buyer: { quote: '9990' } }, rules)
    const ask = await placeOrder(server, seller.token, { symbol, side: 'sell', type: 'limit', quantity: '2000', price: '10' })
    expect(ask.status).toBe(201)
    // 9990 pays for 997 at 10 with the 0.2 % fee (9970 + 19.94), but 997 is no lot: 900 (9000 + 18.00).
    const buy = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'market', quantity: '2000' })
    expect(buy.status).toBe(201)
    expect(buy.body).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '900', average_price: '10' })
    const book = (await server.request('GET', `${API}/symbols/${symbol}/book`, { token: seller.token })).body
    expect(book.asks).toEqual([{ price: '10', quantity: '1100', orders: 1 }])
    const fills = (await server.request('GET', `${API}/fills?order_uid=${buy.body.uid}`, { token: buyer.token })).body
    expect(fills.items.map((f: Record<string, string>) => f.quantity)).toEqual(['900'])
    expect(await account(buyer, quote)).toEqual({ balance: '972.00', hold: '0.00', available: '972.00' })
    expect(await account(buyer, base)).toEqual({ balance: '900.00', hold: '0.00', available: '900.00' })
    expect(await account(seller, base)).toEqual({ balance: '4100.00', hold: '1100.00', available: '3000.00' })
    expect(await account(seller, quote)).toEqual({ balance: '8991.00', hold: '0.00', available: '8991.00' })
    // What is left pays for 97 at 10, not one lot: nothing fills, nothing is spent.
    const short = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'market', quantity: '1000' })
    expect(short.body).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '0', average_price: null })
    expect(await account(buyer, quote)).toEqual({ balance: '972.00', hold: '0.00', available: '972.00' })
    // The rest of the ask is whole lots, so it can still be amended to any lot size.
    const amended = await server.request('PATCH', `${ORDERS}/${ask.body.uid}`, { token: seller.token, body: { quantity: '1800' } })
    expect(amended.status, JSON.stringify(amended.body)).toBe(200)
    expect(amended.body).toMatchObject({ quantity: '1800', filled_quantity: '900', status: 'partially_filled' })
    expect(await accountFees(server.services.db)).toContainEqual({ currency: quote, amount: '27.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('charges a fee raised after a buy rested only as far as its hold spares beyond the rest of the buy', async () => {
    // Found by the generated sequences: the hold of a resting buy is taken at the rates of its
    // placement; a raised maker fee charged on its first fill left too little for its second (500).
    const rules = { price_precision: 3, quantity_precision: -1, min_order_quantity: '10', tick_size: '0.001' }
    const { symbol, base, quote, seller, buyer } = await market({ seller: { base: '20' }, buyer: { quote: '1.90' } }, rules)
    await setSymbolFees(server.services.db, symbol, '0', '0')
    const bid = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'limit', quantity: '20', price: '0.095' })
    expect(bid.status).toBe(201)
    expect(await account(buyer, quote)).toEqual({ balance: '1.90', hold: '1.90', available: '0.00' })
    await setSymbolFees(server.services.db, symbol, '0.1', '0')
    for (const status of ['partially_filled', 'filled']) {
      const sell = await placeOrder(server, seller.token, { symbol, side: 'sell', type: 'market', quantity: '10' })
      expect([sell.status, sell.body.filled_quantity]).toEqual([201, '10'])
      const order = (await server.request('GET', `${ORDERS}/${bid.body.uid}`, { token: buyer.token })).body
      expect(order).toMatchObject({ status, average_price: '0.095' })
    }
    const fills = (await server.request('GET', `${API}/fills?order_uid=${bid.body.uid}`, { token: buyer.token })).body
    expect(fills.items.map((f: Record<string, string>) => f.quantity)).toEqual(['10', '10'])
    expect(await account(buyer, quote)).toEqual({ balance: '0.00', hold: '0.00', available: '0.00' })
    expect(await account(buyer, base)).toEqual({ balance: '20.00', hold: '0.00', available: '20.00' })
    expect(await account(seller, quote)).toEqual({ balance: '1.90', hold: '0.00', available: '1.90' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })
})
