import { graphqlClient } from './client.ts'
import { followOrderEvents } from './events.ts'
import { LoginDocument, OrderDocument, PlaceOrderDocument, RefreshDocument, SymbolsDocument } from './operations.ts'

export interface DashboardExampleOptions {
  baseUrl: string
  credentials: { client_id: string; client_secret: string }
  log?: (line: string) => void
}

/**
 * The bank example's steps through GraphQL, with documents typed by graphql-codegen's client
 * preset and sent by id (trusted documents): log in, refresh before expiry, list symbols (typed
 * `orderBy`), place an order idempotently, read it back, and see its `order.created` event over
 * WebSocket. Throws on any answer it did not expect.
 */
export async function runDashboardExample({ baseUrl, credentials, log = console.log }: DashboardExampleOptions): Promise<{ orderUid: string }> {
  let tokens: { access: string; refresh: string } | undefined
  let expiresAt = 0
  const execute = graphqlClient(`${baseUrl}/graphql`, () => tokens?.access)
  const keep = (pair: { access: string; refresh: string }, expiresIn: number) => {
    tokens = pair
    expiresAt = Date.now() / 1000 + expiresIn
  }
  /** Refreshes when the access token expires within `margin` seconds (every call may check first). */
  const refreshIfDue = async (margin: number) => {
    if (!tokens || expiresAt - Date.now() / 1000 > margin) return false
    const { refresh } = await execute(RefreshDocument, { refreshToken: tokens.refresh })
    keep(refresh.tokens, refresh.expiresIn)
    return true
  }

  const { login } = await execute(LoginDocument, { clientId: credentials.client_id, clientSecret: credentials.client_secret })
  keep(login.tokens, login.expiresIn)
  log(`logged in; the access token expires in ${login.expiresIn} s`)

  // A margin as long as the token's life makes the refresh due now, to show it.
  if (await refreshIfDue(login.expiresIn)) log(`refreshed; the new access token expires in ${Math.round(expiresAt - Date.now() / 1000)} s`)
  else throw new Error('the refresh did not happen')

  await refreshIfDue(60)
  const { symbols } = await execute(SymbolsDocument, { limit: 100, orderBy: { field: 'symbol', direction: 'asc' } })
  log(`symbols (${symbols.total} active): ${symbols.items.map((s) => `${s.symbol} (${s.base.symbol}/${s.quote.symbol})`).join(', ')}`)
  const market = symbols.items.find((s) => s.symbol === 'USD-IRR') ?? symbols.items[0]
  if (!market) throw new Error('no active symbol to trade')

  const input = {
    clientOrderId: `dashboard-${Date.now()}`,
    symbol: market.symbol,
    side: 'buy' as const,
    type: 'limit' as const,
    quantity: market.minOrderQuantity,
    price: market.symbol === 'USD-IRR' ? '1050000' : market.tickSize,
  }
  await refreshIfDue(60)
  const placed = await execute(PlaceOrderDocument, { input })
  if (!placed.createOrder.created) throw new Error('a new clientOrderId answered an existing order')
  log(`placed order ${placed.createOrder.order.uid}: ${placed.createOrder.order.status}`)
  const retried = await execute(PlaceOrderDocument, { input })
  if (retried.createOrder.created || retried.createOrder.order.uid !== placed.createOrder.order.uid) throw new Error('the retry was not idempotent')
  log('retried with the same clientOrderId: created false, the same order')

  const { order } = await execute(OrderDocument, { uid: placed.createOrder.order.uid })
  if (!order) throw new Error('the order is not there')
  log(`read back: ${order.uid} ${order.side} ${order.quantity} ${order.symbol} at ${order.price}, ${order.status}, filled ${order.filledQuantity}`)

  // From after 0 (every event kept): this example keeps no sequence; a dashboard resumes after the
  // last one it applied, and one without any starts with no `after` (the events from now on).
  await refreshIfDue(60)
  const created = await followOrderEvents(
    baseUrl,
    () => tokens!.access,
    '0',
    (e) => e.type === 'order.created' && e.order?.uid === order.uid,
  )
  log(`followed orderEvents over WebSocket: order.created of ${created.order!.uid} at sequence ${created.sequence}`)
  return { orderUid: order.uid }
}
