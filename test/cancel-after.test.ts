import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { formatTimestamp } from '../src/core/timestamps.ts'
import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { CancelDeadlines } from '../src/modules/exchange/cancel-after/cancel-after.ts'
import { readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { timestampOf } from '../src/modules/exchange/market-data/market-time.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// Cancel on disconnect (DESIGN §22; docs/api.md, "Cancel on disconnect"): a tenant's dead man's
// switch, stored in the database and swept by every instance, on an injected clock.

const API = '/api/exchange/v1'
const CANCEL_AFTER = `${ORDERS}/cancel-after`
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
// The sweep's interval in these tests: the clock is set, and the next sweep sees it.
const SWEEP_MS = 50

const buy = (symbol: string, price = '1.00') => ({ symbol, side: 'buy', type: 'limit', quantity: '1', price })
const at = (ms: number) => formatTimestamp(timestampOf(ms))
const statusOf = async (server: TestServer, token: string, uid: string) => (await server.request('GET', `${ORDERS}/${uid}`, { token })).body

describe('POST /api/exchange/v1/orders/cancel-after', () => {
  let server: TestServer
  let bank: TestClient
  let other: TestClient
  let symbols: string[]
  let now: number
  beforeAll(async () => {
    server = await startTestServer({}, undefined, { intervals: { cancelDeadlines: SWEEP_MS } })
    ;[bank, other] = await Promise.all([createTestClient(server), createTestClient(server)])
    symbols = [await createMarket(server.services.db), await createMarket(server.services.db)]
    now = Date.parse('2026-12-20T10:00:00.000Z')
    server.services.cancelDeadlines.now = () => now
  })
  afterAll(async () => {
    await server?.close()
  })

  const arm = (token: string, timeout_seconds: unknown) => server.request('POST', CANCEL_AFTER, { token, body: { timeout_seconds } })

  it("cancels every open order of the tenant at the deadline, with cancel_reason deadline, and no other tenant's", async () => {
    const start = now
    const mine = [
      (await placeOrder(server, bank.token, buy(symbols[0]!))).body,
      (await placeOrder(server, bank.token, buy(symbols[1]!))).body,
      (await placeOrder(server, bank.token, buy(symbols[1]!, '2.00'))).body,
    ]
    const theirs = (await placeOrder(server, other.token, buy(symbols[0]!))).body
    const armed = await arm(bank.token, 5)
    expect(armed.status).toBe(200)
    expect(armed.body).toEqual({ deadline: at(start + 5000) })

    // A moment before: nothing.
    now = start + 4999
    expect(await server.services.cancelDeadlines.sweep()).toBe(0)
    expect((await statusOf(server, bank.token, mine[0]!.uid)).status).toBe('open')

    now = start + 5000
    for (const order of mine) {
      const cancelled = await eventually(async () => {
        const row = await statusOf(server, bank.token, order.uid)
        return row.status === 'cancelled' ? row : undefined
      }, 10_000)
      expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'deadline', filled_quantity: '0' })
    }
    expect((await statusOf(server, other.token, theirs.uid)).status).toBe('open')
    // Fired once: the deadline is gone, and a later order stays.
    expect(await server.services.db.selectFrom('cancel_deadlines').selectAll().where('tenant_id', '=', bank.tenantId).execute()).toEqual([])
    const later = (await placeOrder(server, bank.token, buy(symbols[0]!))).body
    now = start + 60_000
    expect(await server.services.cancelDeadlines.sweep()).toBe(0)
    expect((await statusOf(server, bank.token, later.uid)).status).toBe('open')
    // The events carry the reason too.
    const events = await readEvents(server.services.db, tenantStream(bank.tenantId), 0, 1000)
    const updates = events.filter((e) => e.type === 'order.updated').map((e) => JSON.parse(e.payload).order)
    expect(updates.filter((o) => o.cancel_reason === 'deadline').map((o) => o.uid)).toEqual(expect.arrayContaining(mine.map((o) => o.uid)))
  })

  it('cancels pending stop orders too, releasing their holds, on a market where the tenant has nothing else', async () => {
    const start = now
    // A market of its own: its currencies hold only what these stops hold.
    const symbol = await createMarket(server.services.db)
    const [base, quote] = symbol.split('-') as [string, string]
    const account = async (currency: string) => (await server.request('GET', `${API}/accounts/${currency}`, { token: bank.token })).body
    const before = { base: await account(base), quote: await account(quote) }
    const stopBuy = await placeOrder(server, bank.token, { symbol, side: 'buy', type: 'stop_limit', quantity: '2', price: '3.00', stop_price: '2.50' })
    const stopSell = await placeOrder(server, bank.token, { symbol, side: 'sell', type: 'stop_market', quantity: '1.50', stop_price: '1.00' })
    expect([stopBuy.status, stopBuy.body.status, stopSell.status, stopSell.body.status]).toEqual([201, 'pending', 201, 'pending'])
    expect((await account(quote)).hold).toBe('6.00')
    expect((await account(base)).hold).toBe('1.50')
    expect((await arm(bank.token, 3)).body).toEqual({ deadline: at(start + 3000) })

    now = start + 3000
    for (const placed of [stopBuy.body, stopSell.body]) {
      const cancelled = await eventually(async () => {
        const row = await statusOf(server, bank.token, placed.uid)
        return row.status === 'cancelled' ? row : undefined
      }, 10_000)
      expect(cancelled).toEqual({ ...placed, status: 'cancelled', cancel_reason: 'deadline', updated_at: expect.stringMatching(TIMESTAMP) })
    }
    // Holds released: the accounts are as they were before the stops.
    expect(await account(quote)).toEqual({ ...before.quote, updated_at: expect.stringMatching(TIMESTAMP) })
    expect(await account(base)).toEqual({ ...before.base, updated_at: expect.stringMatching(TIMESTAMP) })
    expect((await account(quote)).hold).toBe('0.00')
    const events = await readEvents(server.services.db, tenantStream(bank.tenantId), 0, 10_000)
    const updates = events.filter((e) => e.type === 'order.updated').map((e) => JSON.parse(e.payload).order)
    expect(updates.filter((o) => o.symbol === symbol).map((o) => [o.uid, o.status, o.cancel_reason])).toEqual([
      [stopBuy.body.uid, 'cancelled', 'deadline'],
      [stopSell.body.uid, 'cancelled', 'deadline'],
    ])
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('moves the deadline when called again before it, and 0 disarms', async () => {
    const start = now
    const order = (await placeOrder(server, other.token, buy(symbols[1]!))).body
    expect((await arm(other.token, 10)).body).toEqual({ deadline: at(start + 10_000) })
    now = start + 9000
    expect((await arm(other.token, 10)).body).toEqual({ deadline: at(start + 19_000) })
    now = start + 15_000
    expect(await server.services.cancelDeadlines.sweep()).toBe(0)
    expect((await statusOf(server, other.token, order.uid)).status).toBe('open')
    const disarmed = await arm(other.token, 0)
    expect(disarmed.status).toBe(200)
    expect(disarmed.body).toEqual({ deadline: null })
    now = start + 3_600_000
    expect(await server.services.cancelDeadlines.sweep()).toBe(0)
    expect((await statusOf(server, other.token, order.uid)).status).toBe('open')
    // Disarming what is not armed is no error.
    expect((await arm(other.token, 0)).body).toEqual({ deadline: null })
  })

  it('is cancelled for by one sweeping instance: another skips a claimed deadline, and takes it over once the claim lapses', async () => {
    const swept = server.services.cancelDeadlines
    // This test sweeps by hand: the background loop would race the sweeps it orders.
    await swept.stop()
    try {
      const start = now
      const order = (await placeOrder(server, bank.token, buy(symbols[0]!))).body
      expect((await arm(bank.token, 1)).status).toBe(200)
      now = start + 1000
      // A second instance's sweep that claims the fired deadline and is slow to cancel (or died).
      const finishes: (() => void)[] = []
      const finish = () => finishes.forEach((f) => f())
      const calls: string[] = []
      const slow = new CancelDeadlines(
        server.services.db,
        {
          cancelMany: (symbol) => {
            calls.push(symbol)
            return new Promise((resolve) => finishes.push(() => resolve([])))
          },
        },
        { info: () => {} },
        () => now,
      )
      const claimed = slow.sweep()
      await eventually(async () => (calls.length > 0 ? true : undefined), 10_000)
      // This instance finds it claimed: nothing cancelled twice, nor late after the other cleared it.
      expect(await swept.sweep()).toBe(0)
      expect((await statusOf(server, bank.token, order.uid)).status).toBe('open')
      // The claim lapses (the claimer died): this instance takes the deadline over.
      now = start + 1000 + 9_999
      expect(await swept.sweep()).toBe(0)
      now = start + 1000 + 10_000
      expect(await swept.sweep()).toBe(1)
      expect(await statusOf(server, bank.token, order.uid)).toMatchObject({ status: 'cancelled', cancel_reason: 'deadline' })
      finish()
      expect(await claimed).toBe(0)
      expect(await server.services.db.selectFrom('cancel_deadlines').selectAll().where('tenant_id', '=', bank.tenantId).execute()).toEqual([])
    } finally {
      swept.start(SWEEP_MS, () => {})
    }
  })

  it('accepts 0 to 600 whole seconds and refuses anything else, changing nothing', async () => {
    const reader = await createTestClient(server, { tenant_id: bank.tenantId, scopes: ['orders:read'] })
    expect((await arm(bank.token, 600)).body).toEqual({ deadline: at(now + 600_000) })
    const cases: [unknown, unknown][] = [
      [
        601,
        [
          {
            type: 'value_error.number.not_le',
            loc: ['body', 'timeout_seconds'],
            msg: 'ensure this value is less than or equal to 600',
            input: 601,
            ctx: { limit_value: 600 },
          },
        ],
      ],
      [
        -1,
        [
          {
            type: 'value_error.number.not_ge',
            loc: ['body', 'timeout_seconds'],
            msg: 'ensure this value is greater than or equal to 0',
            input: -1,
            ctx: { limit_value: 0 },
          },
        ],
      ],
      [1.5, [{ type: 'type_error.integer', loc: ['body', 'timeout_seconds'], msg: 'value is not a valid integer', input: 1.5 }]],
      ['10', [{ type: 'type_error.number', loc: ['body', 'timeout_seconds'], msg: 'value is not a valid number', input: '10' }]],
      [undefined, [{ type: 'missing', loc: ['body', 'timeout_seconds'], msg: 'Field required' }]],
    ]
    for (const [value, detail] of cases) {
      const res = await arm(bank.token, value)
      expect(res.status, JSON.stringify(value)).toBe(422)
      expect(res.body).toEqual({ detail })
    }
    const extra = await server.request('POST', CANCEL_AFTER, { token: bank.token, body: { timeout_seconds: 5, symbol: 'X' } })
    expect(extra.body).toEqual({ detail: [{ type: 'value_error.extra', loc: ['body', 'symbol'], msg: 'extra fields not permitted' }] })
    const denied = await arm(reader.token, 5)
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({ message: 'Access denied: requires orders:write', error: 'permission_denied', detail: 'Access denied: requires orders:write' })
    // Still the deadline of the valid call.
    const [row] = await server.services.db.selectFrom('cancel_deadlines').select('deadline').where('tenant_id', '=', bank.tenantId).execute()
    expect(formatTimestamp(row!.deadline)).toBe(at(now + 600_000))
    expect((await arm(bank.token, 0)).body).toEqual({ deadline: null })
  })

  it('GraphQL cancelAfter answers and refuses as REST does', async () => {
    const mutation = `mutation ($t: Int!) { cancelAfter(timeoutSeconds: $t) { deadline } }`
    const armed = await server.graphql<any, any>(mutation, { t: 30 }, { token: bank.token })
    expect(armed.data).toEqual({ cancelAfter: { deadline: at(now + 30_000) } })
    const refused = await server.graphql<any, any>(mutation, { t: 601 }, { token: bank.token })
    const rest = await arm(bank.token, 601)
    expect(refused.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', error: 'validation_error', detail: rest.body.detail })
    expect((await server.graphql<any, any>(mutation, { t: 0 }, { token: bank.token })).data).toEqual({ cancelAfter: { deadline: null } })
  })
})

describe.skipIf(!onPostgres)('cancel-after across two instances on PostgreSQL', () => {
  let a: TestServer
  let b: TestServer
  beforeAll(async () => {
    a = await startTestServer({}, undefined, { intervals: { cancelDeadlines: SWEEP_MS } })
    b = await startTestServer({}, a.database, { intervals: { cancelDeadlines: SWEEP_MS } })
  }, 60_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  it('the deadline armed on one instance fires on the other after the first is gone', async () => {
    const bank = await createTestClient(a)
    const symbol = await createMarket(a.services.db)
    let now = Date.parse('2026-12-20T12:00:00.000Z')
    a.services.cancelDeadlines.now = () => now
    b.services.cancelDeadlines.now = () => now
    const order = (await placeOrder(a, bank.token, buy(symbol))).body
    expect((await a.request('POST', CANCEL_AFTER, { token: bank.token, body: { timeout_seconds: 20 } })).body).toEqual({ deadline: at(now + 20_000) })
    await a.stop()

    now += 20_000
    const cancelled = await eventually(async () => {
      const row = await statusOf(b, bank.token, order.uid)
      return row.status === 'cancelled' ? row : undefined
    }, 10_000)
    expect(cancelled).toMatchObject({ uid: order.uid, status: 'cancelled', cancel_reason: 'deadline' })
  })
})
