import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { formatDecimal, multiply, unitOfPlaces } from '../src/core/decimal.ts'
import { DEFAULT_SCOPES } from '../src/modules/auth/clients/clients.ts'
import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { setSymbolFees } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { addDestination } from '../src/modules/exchange/withdrawals/destinations.ts'
import { setApprovalThreshold } from '../src/modules/exchange/withdrawals/withdrawal-settings.ts'
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
 * and with themselves, and every fill and remainder must be whole lots of the symbol — on a market
 * of tenths and on one in lots of 10 (a negative quantity precision, as the demo's rial markets),
 * where market buys that their funds bound must round down to a lot (docs/matching.md, "Lots").
 * Banks also ask for withdrawals, which admins approve (two approvals above a threshold) or
 * reject and banks cancel: a pending one holds its amount, a completed one has left.
 */

let server: TestServer
let admin: TestClient
let admin2: TestClient
let banks: TestClient[]
const API = '/api/exchange/v1'

beforeAll(async () => {
  server = await startTestServer()
  admin = await createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false })
  admin2 = await createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false })
  banks = await Promise.all([0, 1, 2].map(() => createTestClient(server, { funded: false, scopes: [...DEFAULT_SCOPES, 'accounts:withdraw'] })))
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
  | { kind: 'request'; bank: number; quote: boolean; amount: number }
  | { kind: 'decide'; pick: number; action: 'approve' | 'approve2' | 'reject' | 'cancel' }

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
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('request' as const), bank, quote: fc.boolean(), amount: fc.integer({ min: 1, max: 5000 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      pick: fc.nat(50),
      action: fc.constantFrom('approve' as const, 'approve2' as const, 'reject' as const, 'cancel' as const),
    }),
  },
)

/** Withdrawals of at least this many hundredths need two approvals (a threshold on every sequence's quote currency). */
const THRESHOLD_CENTS = 2000

/** The market of a sequence: lots twice as often, where a quantity can come out of step. */
const shapeName = fc.constantFrom('tenths' as const, 'lots' as const, 'lots' as const)
/** Opening deposits: base of banks 0..2, then quote of banks 0..2. */
const opening = fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 6, maxLength: 6 })

/** Hundredths as decimal text. */
const cents = (n: number) => (n / 100).toFixed(2)
const tenths = (n: number) => (n / 10).toFixed(1)

/**
 * The two markets a sequence runs on: quantities in tenths at prices 95..105; or the same
 * quantities ×100 (lots of 10) at prices ÷1000, with base deposits ×100 — a lot costs about 1.00,
 * so a market buy that its funds bound usually affords a quantity that is not a whole lot.
 */
const SHAPES = {
  tenths: {
    rules: { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' },
    step: '0.1',
    quantity: tenths,
    price: (n: number) => tenths(n * 10),
    baseCents: (n: number) => n,
  },
  lots: {
    rules: { price_precision: 3, quantity_precision: -1, min_order_quantity: '10', tick_size: '0.001' },
    step: '10',
    quantity: (n: number) => String(n * 10),
    price: (n: number) => (n / 1000).toFixed(3),
    baseCents: (n: number) => n * 100,
  },
}

describe('accounts under generated sequences', () => {
  it('conserve every unit, keep each balance its ledger, each hold its open orders, and nothing negative', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(shapeName, opening, fc.array(step, { minLength: 5, maxLength: 25 }), async (shapeName, openingAmounts, later) => {
        const shape = SHAPES[shapeName]
        // Each bank starts with a little of each currency (0: nothing), so sequences trade often.
        const steps: Step[] = [
          ...openingAmounts.flatMap((amount, i) => (amount === 0 ? [] : [{ kind: 'deposit' as const, bank: i % 3, quote: i >= 3, amount }])),
          ...later,
        ]
        const symbol = await createMarket(server.services.db, shape.rules, { funded: false })
        const [base, quote] = symbol.split('-') as [string, string]
        // The model: what came in and went out of each currency, in hundredths.
        const net = new Map<string, number>([
          [base, 0],
          [quote, 0],
        ])
        const placed: string[] = []
        let reference = 0
        // Each bank may pay out to one destination per currency of the market.
        const destinations = new Map<string, string>()
        for (const [i, client] of banks.entries()) {
          for (const currency of [base, quote]) {
            const row = await addDestination(server.services.db, { tenant_id: client.tenantId, currency, label: 'out', iban: 'GB82WEST12345698765432' })
            destinations.set(`${i} ${currency}`, row.uid)
          }
        }
        await setApprovalThreshold(server.services.db, quote, cents(THRESHOLD_CENTS))
        const withdrawals: { uid: string; bank: number; currency: string; amount: number }[] = []
        for (const s of steps) {
          if (s.kind === 'deposit' || s.kind === 'withdrawal') {
            const currency = s.quote ? quote : base
            const amount = s.quote ? s.amount : shape.baseCents(s.amount)
            const res = await server.request('POST', `${API}/transfers`, {
              token: admin.token,
              body: { tenant_id: banks[s.bank]!.tenantId, currency, amount: cents(amount), kind: s.kind, reference: `inv-${symbol}-${reference++}` },
            })
            if (res.status === 201) net.set(currency, net.get(currency)! + (s.kind === 'deposit' ? amount : -amount))
            else expect(res.body.detail?.[0]?.type).toBe('value_error.insufficient_balance')
          } else if (s.kind === 'limit' || s.kind === 'market') {
            const body =
              s.kind === 'limit'
                ? { symbol, side: s.side, type: 'limit', quantity: shape.quantity(s.quantity), price: shape.price(s.price) }
                : { symbol, side: s.side, type: 'market', quantity: shape.quantity(s.quantity) }
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
          } else if (s.kind === 'request') {
            const currency = s.quote ? quote : base
            const amount = s.quote ? s.amount : shape.baseCents(s.amount)
            const res = await server.request('POST', `${API}/withdrawals`, {
              token: banks[s.bank]!.token,
              body: { currency, amount: cents(amount), destination_uid: destinations.get(`${s.bank} ${currency}`), reference: `w-${symbol}-${reference++}` },
            })
            if (res.status === 201) withdrawals.push({ uid: res.body.uid, bank: s.bank, currency, amount })
            else expect(res.body.detail?.[0]?.type, JSON.stringify(res.body)).toBe('value_error.insufficient_balance')
          } else if (s.kind === 'decide') {
            const w = withdrawals[s.pick % Math.max(1, withdrawals.length)]
            if (w) {
              const url = `${API}/withdrawals/${w.uid}`
              const res =
                s.action === 'cancel'
                  ? await server.request('DELETE', url, { token: banks[w.bank]!.token })
                  : await server.request('POST', `${url}/${s.action === 'reject' ? 'reject' : 'approve'}`, {
                      token: s.action === 'approve2' ? admin2.token : admin.token,
                      body: s.action === 'reject' ? { reason: 'generated' } : {},
                    })
              // 409: final already, or the same admin again.
              expect([200, 409], JSON.stringify(res.body)).toContain(res.status)
              if (res.status === 200 && res.body.status === 'completed') net.set(w.currency, net.get(w.currency)! - w.amount)
            }
          }
          await expectBooksBalanced(base, quote, net)
          await expectWholeLots(symbol, shape.step)
        }
      }),
      { numRuns: onPostgres ? 12 : 8 },
    )
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('fill market buys that their funds bound in whole lots, up to the last lot the funds pay for, whatever the precision', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          precision: fc.constantFrom(-2, -1, 0, 1, 2),
          // Per ask: price as tenths of a lot's cost (a lot costs 9.0..11.0), size in lots.
          asks: fc.array(fc.record({ price: fc.integer({ min: 90, max: 110 }), lots: fc.integer({ min: 5, max: 30 }) }), { minLength: 1, maxLength: 4 }),
          // Hundredths of quote: 1.00..44.99, less than 5 lots cost, so a first buy (5 lots or more) is bound by it.
          funds: fc.integer({ min: 100, max: 4499 }),
          taker: fc.integer({ min: 0, max: 30 }),
          buys: fc.array(fc.integer({ min: 5, max: 200 }), { minLength: 1, maxLength: 3 }),
        }),
        async ({ precision, asks, funds, taker, buys }) => {
          // A lot is 10^-precision; a price of n makes a lot cost n/10, at whatever places that needs.
          const pricePlaces = Math.max(0, 1 - precision)
          const lot = formatDecimal(unitOfPlaces(precision))
          const lots = (n: number) => formatDecimal(multiply(unitOfPlaces(precision), { coefficient: BigInt(n), scale: 0 }))
          const price = (n: number) => formatDecimal(multiply({ coefficient: BigInt(n), scale: 1 }, unitOfPlaces(-precision)))
          const symbol = await createMarket(
            server.services.db,
            { price_precision: pricePlaces, quantity_precision: precision, min_order_quantity: lot, tick_size: formatDecimal(unitOfPlaces(pricePlaces)) },
            { funded: false },
          )
          const [base, quote] = symbol.split('-') as [string, string]
          await setSymbolFees(server.services.db, symbol, '0', tenths(taker))
          const [seller, buyer] = [banks[0]!, banks[1]!]
          const sold = asks.reduce((n, a) => n + a.lots, 0)
          const net = new Map<string, number>([
            [base, Math.round(Number(lots(sold)) * 100)],
            [quote, funds],
          ])
          for (const [client, currency, amount] of [
            [seller, base, lots(sold)],
            [buyer, quote, cents(funds)],
          ] as const) {
            const res = await server.request('POST', `${API}/transfers`, {
              token: admin.token,
              body: { tenant_id: client.tenantId, currency, amount, kind: 'deposit', reference: `lots-${symbol}-${currency}` },
            })
            expect(res.status, JSON.stringify(res.body)).toBe(201)
          }
          for (const ask of asks) {
            const res = await placeOrder(server, seller.token, { symbol, side: 'sell', type: 'limit', quantity: lots(ask.lots), price: price(ask.price) })
            expect(res.status, JSON.stringify(res.body)).toBe(201)
          }
          for (const quantity of buys) {
            const res = await placeOrder(server, buyer.token, { symbol, side: 'buy', type: 'market', quantity: lots(quantity) })
            const available = (await server.request('GET', `${API}/accounts/${quote}`, { token: buyer.token })).body.available
            if (res.status === 422) {
              expect(res.body.detail.map((d: { type: string }) => d.type)).toEqual(['value_error.insufficient_balance'])
              expect(Number(available)).toBe(0)
              continue
            }
            expect(res.status, JSON.stringify(res.body)).toBe(201)
            await expectWholeLots(symbol, lot)
            await expectBooksBalanced(base, quote, net)
            // Stopped short with asks left: one more lot at the best ask would cost more than is left
            // (its amount and fee each round up by at most a cent).
            const best = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book?depth=1`, { token: buyer.token })).body.asks[0]
            if (res.body.status !== 'filled' && best) {
              const lotCost = Number(best.price) * Number(lot) * 100
              expect(Number(available) * 100, `${available} left, best ask ${best.price}`).toBeLessThan((lotCost + 1) * (1 + taker / 1000) + 1)
            }
          }
        },
      ),
      { numRuns: 10 },
    )
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
            and o.status in ('open', 'partially_filled'))
            + (select coalesce(sum(amount), 0) from withdrawals w where w.tenant_id = a.tenant_id and w.currency = a.currency and w.status = 'pending')) as hold_off,
        (select count(*)::int from orders where hold_currency = ${currency} and status in ('filled', 'cancelled') and hold <> 0) as ended_holding`.execute(db)
    const r = rows[0]!
    // Σ balances + Σ fees = deposits − withdrawals, to the unit.
    expect(Math.round((Number(r.balances) + Number(r.fees)) * 100), currency).toBe(net.get(currency))
    expect([r.negative, r.ledger_off, r.hold_off, r.ended_holding], currency).toEqual([0, 0, 0, 0])
  }
}

/** Every fill, every order's filled quantity and every remainder of this market is a multiple of its quantity step. */
async function expectWholeLots(symbol: string, step: string): Promise<void> {
  const { rows } = await sql<{ kind: string; quantity: string }>`
    select 'fill' as kind, quantity::text from fills where symbol = ${symbol} and mod(quantity, ${step}::numeric) <> 0
    union all
    select 'filled', filled_quantity::text from orders where symbol = ${symbol} and mod(filled_quantity, ${step}::numeric) <> 0
    union all
    select 'remaining', (quantity - filled_quantity)::text from orders where symbol = ${symbol} and mod(quantity - filled_quantity, ${step}::numeric) <> 0`.execute(
    server.services.db,
  )
  expect(rows, `quantities of ${symbol} that are not multiples of ${step}`).toEqual([])
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
  /** A tenant allowed to withdraw, its account in `currency` funded with `amount`, with a destination there. */
  async function withdrawer(currency: string, amount: string): Promise<TestClient & { destination: string }> {
    const client = await createTestClient(server, { funded: false, scopes: [...DEFAULT_SCOPES, 'accounts:withdraw'] })
    const res = await server.request('POST', `${API}/transfers`, {
      token: admin.token,
      body: { tenant_id: client.tenantId, currency, amount, kind: 'deposit', reference: `fund-${client.tenantId}` },
    })
    expect(res.status).toBe(201)
    const destination = await addDestination(server.services.db, { tenant_id: client.tenantId, currency, label: 'out', iban: 'GB82WEST12345698765432' })
    return { ...client, destination: destination.uid }
  }

  const call = (url: string, method: string, path: string, token: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

  it('accepts exactly the orders and withdrawals one account can pay for, asked at once on two processes', { timeout: 120_000 }, async () => {
    const symbol = await createMarket(server.services.db, {}, { funded: false })
    const [, quote] = symbol.split('-') as [string, string]
    const spender = await withdrawer(quote, '570.00')
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const url = i % 2 === 0 ? server.url : other.url
        return i % 4 < 2
          ? call(url, 'POST', ORDERS, spender.token, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' })
          : call(url, 'POST', `${API}/withdrawals`, spender.token, {
              currency: quote,
              amount: '10.00',
              destination_uid: spender.destination,
              reference: `race-${i}`,
            })
      }),
    )
    const kinds = answers.reduce<Record<string, number>>((t, a) => {
      const k = `${a.status} ${a.status === 201 ? 'created' : (a.body?.detail?.[0]?.type ?? a.body?.error)}`
      return { ...t, [k]: (t[k] ?? 0) + 1 }
    }, {})
    expect(kinds).toEqual({ '201 created': 57, '422 value_error.insufficient_balance': 143 })
    const account = (await server.request('GET', `${API}/accounts/${quote}`, { token: spender.token })).body
    expect(account).toMatchObject({ balance: '570.00', hold: '570.00', available: '0.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('never lets an approval and a cancellation of one withdrawal both win, on two processes', { timeout: 120_000 }, async () => {
    const symbol = await createMarket(server.services.db, {}, { funded: false })
    const [, quote] = symbol.split('-') as [string, string]
    const bank = await withdrawer(quote, '1000.00')
    // At or above 5.00, two approvals: those race two admins and the bank.
    await setApprovalThreshold(server.services.db, quote, '5.00')
    const asked = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(server.url, 'POST', `${API}/withdrawals`, bank.token, {
          currency: quote,
          amount: i % 2 === 0 ? '1.00' : '5.00',
          destination_uid: bank.destination,
          reference: `duel-${i}`,
        }),
      ),
    )
    expect(asked.map((a) => a.status)).toEqual(Array(40).fill(201))
    const outcomes = await Promise.all(
      asked.map(async ({ body: w }, i) => {
        const path = `${API}/withdrawals/${w.uid}`
        const [approved, cancelled, second] = await Promise.all([
          call(i % 2 === 0 ? server.url : other.url, 'POST', `${path}/approve`, admin.token, {}),
          call(i % 2 === 0 ? other.url : server.url, 'DELETE', path, bank.token),
          call(i % 2 === 0 ? other.url : server.url, 'POST', `${path}/approve`, admin2.token, {}),
        ])
        const stored = (await call(server.url, 'GET', path, admin.token)).body
        return { amount: w.amount as string, approved, cancelled, second, stored }
      }),
    )
    let paid = 0
    for (const { amount, approved, cancelled, second, stored } of outcomes) {
      for (const answer of [approved, cancelled, second]) expect([200, 409]).toContain(answer.status)
      if (stored.status === 'cancelled') {
        // The cancellation won: any approval before it left the withdrawal pending (two were needed).
        expect(cancelled.status).toBe(200)
        expect(stored.approvals.length).toBeLessThan(amount === '1.00' ? 1 : 2)
      } else {
        expect(stored.status).toBe('completed')
        expect(cancelled.status).toBe(409)
        expect(stored.approvals.length).toBe(amount === '1.00' ? 1 : 2)
        paid += Number(amount)
      }
    }
    const account = (await server.request('GET', `${API}/accounts/${quote}`, { token: bank.token })).body
    expect(account).toMatchObject({ balance: (1000 - paid).toFixed(2), hold: '0.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('leaves every account accounted for when a process is killed amid withdrawals, decisions and trades', { timeout: 180_000 }, async () => {
    const victim = await startServerProcess({ DATABASE_URL: server.database.databaseUrl!, DATA_DIR: server.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
    const symbol = await createMarket(server.services.db, {}, { funded: false })
    const [base, quote] = symbol.split('-') as [string, string]
    const [buyer, seller] = [await withdrawer(quote, '100000.00'), await withdrawer(base, '100000.00')]
    let answered = 0
    const calls: Promise<unknown>[] = []
    let killed!: () => void
    const enough = new Promise<void>((resolve) => (killed = resolve))
    const count = <T>(p: Promise<T>) => p.finally(() => ++answered >= 30 && killed()).catch(() => undefined)
    for (let i = 0; i < 150; i++) {
      const url = i % 3 === 0 ? server.url : victim.url
      calls.push(
        count(
          call(url, 'POST', `${API}/withdrawals`, buyer.token, {
            currency: quote,
            amount: '3.00',
            destination_uid: buyer.destination,
            reference: `kill-${i}`,
          }).then((res) =>
            res.status === 201 && i % 2 === 0
              ? call(
                  i % 4 === 0 ? victim.url : server.url,
                  i % 8 === 0 ? 'DELETE' : 'POST',
                  `${API}/withdrawals/${res.body.uid}${i % 8 === 0 ? '' : '/approve'}`,
                  i % 8 === 0 ? buyer.token : admin.token,
                  i % 8 === 0 ? undefined : {},
                )
              : res,
          ),
        ),
        count(
          call(url, 'POST', ORDERS, i % 2 === 0 ? buyer.token : seller.token, {
            symbol,
            side: i % 2 === 0 ? 'buy' : 'sell',
            type: 'limit',
            quantity: '1',
            price: '10.00',
          }),
        ),
      )
    }
    await enough
    await victim.stop('SIGKILL')
    await Promise.all(calls)
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })
})
