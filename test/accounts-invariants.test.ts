import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { setSymbolFees } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

/**
 * Money under generated sequences (docs/accounts.md): deposits, withdrawals, limit and market
 * orders of both sides, cancels and fee changes, through the real service, with tenants holding
 * little enough that orders are refused for want of funds. A plain model in the test knows only
 * what came in and went out per currency; after every step the stored accounts must agree with it
 * and with themselves.
 */

let server: TestServer
let admin: TestClient
let banks: TestClient[]
const API = '/api/exchange/v1'

beforeAll(async () => {
  server = await startTestServer()
  admin = await createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false })
  banks = await Promise.all([0, 1, 2].map(() => createTestClient(server, { funded: false })))
})
afterAll(async () => {
  await server?.close()
})

type Side = 'buy' | 'sell'
type Step =
  | { kind: 'deposit' | 'withdrawal'; bank: number; quote: boolean; amount: number }
  | { kind: 'limit'; bank: number; side: Side; price: number; quantity: number }
  | { kind: 'market'; bank: number; side: Side; quantity: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'fees'; maker: number; taker: number }

const bank = fc.nat(2)
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('deposit' as const, 'withdrawal' as const),
      bank,
      quote: fc.boolean(),
      amount: fc.integer({ min: 1, max: 5000 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      bank,
      side: fc.constantFrom<Side>('buy', 'sell'),
      price: fc.integer({ min: 95, max: 105 }),
      quantity: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('market' as const), bank, side: fc.constantFrom<Side>('buy', 'sell'), quantity: fc.integer({ min: 1, max: 60 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fees' as const), maker: fc.integer({ min: 0, max: 30 }), taker: fc.integer({ min: 0, max: 30 }) }) },
)

/** Hundredths as decimal text. */
const cents = (n: number) => (n / 100).toFixed(2)
const tenths = (n: number) => (n / 10).toFixed(1)

describe('accounts under generated sequences', () => {
  it('conserve every unit, keep each balance its ledger, each hold its open orders, and nothing negative', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        const symbol = await createMarket(
          server.services.db,
          { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' },
          { funded: false },
        )
        const [base, quote] = symbol.split('-') as [string, string]
        // The model: what came in and went out of each currency, in hundredths.
        const net = new Map<string, number>([
          [base, 0],
          [quote, 0],
        ])
        const placed: string[] = []
        let reference = 0
        for (const s of steps) {
          if (s.kind === 'deposit' || s.kind === 'withdrawal') {
            const currency = s.quote ? quote : base
            const res = await server.request('POST', `${API}/transfers`, {
              token: admin.token,
              body: { tenant_id: banks[s.bank]!.tenantId, currency, amount: cents(s.amount), kind: s.kind, reference: `inv-${symbol}-${reference++}` },
            })
            if (res.status === 201) net.set(currency, net.get(currency)! + (s.kind === 'deposit' ? s.amount : -s.amount))
            else expect(res.body.detail?.[0]?.type).toBe('value_error.insufficient_balance')
          } else if (s.kind === 'limit' || s.kind === 'market') {
            const body =
              s.kind === 'limit'
                ? { symbol, side: s.side, type: 'limit', quantity: tenths(s.quantity), price: tenths(s.price * 10) }
                : { symbol, side: s.side, type: 'market', quantity: tenths(s.quantity) }
            const res = await placeOrder(server, banks[s.bank]!.token, body)
            if (res.status === 201) placed.push(res.body.uid)
            else {
              expect(res.status).toBe(422)
              expect(res.body.detail.map((d: { type: string }) => d.type)).toEqual(['value_error.insufficient_balance'])
            }
          } else if (s.kind === 'cancel') {
            const uid = placed[s.pick % Math.max(1, placed.length)]
            if (uid) {
              const order = (await server.request('GET', `${ORDERS}/${uid}`, { token: admin.token })).body
              const client = banks.find((b) => b.tenantId === order.tenant_id)!
              expect([200, 409]).toContain((await server.request('DELETE', `${ORDERS}/${uid}`, { token: client.token })).status)
            }
          } else if (s.kind === 'fees') {
            await setSymbolFees(server.services.db, symbol, tenths(s.maker), tenths(s.taker))
          }
          await expectBooksBalanced(base, quote, net)
        }
      }),
      { numRuns: onPostgres ? 12 : 8 },
    )
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })
})

/** Every invariant of money over this market's two currencies, read from what is stored. */
async function expectBooksBalanced(base: string, quote: string, net: Map<string, number>): Promise<void> {
  const db = server.services.db
  for (const currency of [base, quote]) {
    const { rows } = await sql<{ balances: string; fees: string; negative: number; ledger_off: number; hold_off: number; ended_holding: number }>`
      select
        (select coalesce(sum(balance), 0) from accounts where currency = ${currency}) as balances,
        (select coalesce(sum(amount), 0) from collected_fees where currency = ${currency}) as fees,
        (select count(*)::int from accounts where currency = ${currency} and (balance < 0 or hold < 0 or hold > balance)) as negative,
        (select count(*)::int from accounts a where currency = ${currency}
          and a.balance <> (select coalesce(sum(amount), 0) from ledger_entries l where l.tenant_id = a.tenant_id and l.currency = a.currency)) as ledger_off,
        (select count(*)::int from accounts a where currency = ${currency}
          and a.hold <> (select coalesce(sum(hold), 0) from orders o where o.tenant_id = a.tenant_id and o.hold_currency = a.currency
            and o.status in ('open', 'partially_filled'))) as hold_off,
        (select count(*)::int from orders where hold_currency = ${currency} and status in ('filled', 'cancelled') and hold <> 0) as ended_holding`.execute(db)
    const r = rows[0]!
    // Σ balances + Σ fees = deposits − withdrawals, to the unit.
    expect(Math.round((Number(r.balances) + Number(r.fees)) * 100), currency).toBe(net.get(currency))
    expect([r.negative, r.ledger_off, r.hold_off, r.ended_holding], currency).toEqual([0, 0, 0, 0])
  }
}

describe.skipIf(!onPostgres)('one tenant spending beyond its balance at once, through two processes', () => {
  let other: ServerProcess
  beforeAll(async () => {
    other = await startServerProcess({ DATABASE_URL: server.database.databaseUrl!, DATA_DIR: server.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
  }, 90_000)
  afterAll(async () => {
    await other?.stop()
  })

  it('accepts exactly the orders it can pay for, on two symbols of one quote currency', { timeout: 120_000 }, async () => {
    const one = await createMarket(server.services.db, {}, { funded: false })
    const [, quote] = one.split('-') as [string, string]
    // A second market quoted in the same currency: passes of both symbols spend one account.
    const two = `${one.split('-')[0]}X-${quote}`.slice(0)
    await sql`insert into currencies (code, name_fa, name_en, precision, icon, is_crypto, color, unit_value_irr)
      select ${two.split('-')[0]}, code, code, 2, icon, is_crypto, color, unit_value_irr from currencies where code = ${quote}`.execute(server.services.db)
    await sql`insert into symbols (uid, user_id, symbol, base, quote, description, is_active, price_precision, quantity_precision, min_order_quantity,
        tick_size, daily_fluctuation_price_limit_percent)
      select gen_random_uuid(), user_id, ${two}, ${two.split('-')[0]}, quote, description, is_active, price_precision, quantity_precision,
        min_order_quantity, tick_size, daily_fluctuation_price_limit_percent from symbols where symbol = ${one}`.execute(server.services.db)
    const spender = await createTestClient(server, { funded: false })
    // Each order holds exactly 10.00; the balance pays for 57 of them.
    const res = await server.request('POST', `${API}/transfers`, {
      token: admin.token,
      body: { tenant_id: spender.tenantId, currency: quote, amount: '570.00', kind: 'deposit', reference: `spend-${one}` },
    })
    expect(res.status).toBe(201)
    const post = (url: string, symbol: string) =>
      fetch(`${url}${ORDERS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${spender.token}` },
        body: JSON.stringify({ symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(i % 2 === 0 ? server.url : other.url, i % 4 < 2 ? one : two)))
    // Tallied by status and reason; a failure also shows the tally of each process and a body of each kind.
    type Answer = (typeof answers)[number]
    const kind = (a: Answer) => `${a.status} ${a.status === 201 ? 'created' : (a.body?.detail?.[0]?.type ?? a.body?.error ?? 'other')}`
    const tally = (list: Answer[]) => list.reduce<Record<string, number>>((t, a) => ({ ...t, [kind(a)]: (t[kind(a)] ?? 0) + 1 }), {})
    const shown = {
      thisProcess: tally(answers.filter((_, i) => i % 2 === 0)),
      otherProcess: tally(answers.filter((_, i) => i % 2 === 1)),
      bodies: Object.fromEntries(answers.map((a) => [kind(a), a.body])),
    }
    expect(tally(answers), JSON.stringify(shown, null, 2)).toEqual({ '201 created': 57, '422 value_error.insufficient_balance': 143 })
    const account = (await server.request('GET', `${API}/accounts/${quote}`, { token: spender.token })).body
    expect(account).toMatchObject({ balance: '570.00', hold: '570.00', available: '0.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })
})
