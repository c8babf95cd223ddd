import { type Credentials, ExchangeSession } from './session.ts'

export interface BankExampleOptions {
  baseUrl: string
  credentials: Credentials
  log?: (line: string) => void
}

/**
 * What a bank's integration does, with types generated from openapi.json: log in, refresh before
 * expiry, list symbols, place an order idempotently (a retry gets the same order) and read it back.
 * Throws on any answer it did not expect.
 */
export async function runBankExample({ baseUrl, credentials, log = console.log }: BankExampleOptions): Promise<{ orderUid: string }> {
  const session = new ExchangeSession(baseUrl, credentials)
  await session.login()
  log(`logged in; the access token expires in ${Math.round(session.secondsLeft)} s`)

  // The session refreshes on its own `refreshMargin` seconds before expiry; here once on purpose.
  await session.refresh()
  log(`refreshed; the new access token expires in ${Math.round(session.secondsLeft)} s`)

  const symbols = await session.api.GET('/api/exchange/v1/symbols', { params: { query: { limit: 100, order_by: 'symbol', is_active: true } } })
  if (!symbols.data) throw new Error(`listing symbols failed: ${symbols.response.status} ${JSON.stringify(symbols.error)}`)
  log(`symbols (${symbols.data.total} active): ${symbols.data.items.map((s) => s.symbol).join(', ')}`)
  // USD-IRR on the demo market; any active symbol elsewhere (at its tick size, which its band may refuse).
  const market = symbols.data.items.find((s) => s.symbol === 'USD-IRR') ?? symbols.data.items[0]
  if (!market) throw new Error('no active symbol to trade')

  // A limit buy at a price on the tick, with an id of our own: sending it again cannot place a second order.
  const body = {
    client_order_id: `example-${Date.now()}`,
    symbol: market.symbol,
    side: 'buy' as const,
    type: 'limit' as const,
    quantity: market.min_order_quantity,
    price: market.symbol === 'USD-IRR' ? '1050000' : market.tick_size,
  }
  const placed = await session.api.POST('/api/exchange/v1/orders', { body })
  if (placed.response.status === 422) throw new Error(`order refused: ${JSON.stringify(placed.error)}`)
  if (!placed.data || placed.response.status !== 201) throw new Error(`placing the order failed: ${placed.response.status} ${JSON.stringify(placed.error)}`)
  log(`placed order ${placed.data.uid}: ${placed.data.side} ${placed.data.quantity} ${placed.data.symbol} at ${placed.data.price}, ${placed.data.status}`)

  const retried = await session.api.POST('/api/exchange/v1/orders', { body })
  if (retried.response.status !== 200 || retried.data?.uid !== placed.data.uid) throw new Error(`the retry was not idempotent: ${retried.response.status}`)
  log(`retried with the same client_order_id: answered 200 with the same order`)

  const read = await session.api.GET('/api/exchange/v1/orders/{uid}', { params: { path: { uid: placed.data.uid } } })
  if (!read.data) throw new Error(`reading the order back failed: ${read.response.status}`)
  log(`read back: ${read.data.uid} is ${read.data.status}, filled ${read.data.filled_quantity} of ${read.data.quantity}`)
  return { orderUid: read.data.uid }
}
