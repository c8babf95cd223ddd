import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { applyAccountChanges } from '../src/modules/exchange/accounts/accounts.repository.ts'
import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const API = '/api/exchange/v1'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ACCOUNT_HEADS = {
  currency: { en: 'Currency' },
  balance: { en: 'Balance' },
  hold: { en: 'Hold' },
  available: { en: 'Available' },
  updated_at: { en: 'Updated At' },
}
const errorBody = (error: string, message: string) => ({ message, error, detail: message })

let server: TestServer
let bank: TestClient
let other: TestClient
let admin: TestClient
let adminWithoutWrite: TestClient
let noScope: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server, { funded: false })
  other = await createTestClient(server, { funded: false })
  admin = await createTestClient(server, { funded: false, roles: ['admin'] })
  adminWithoutWrite = await createTestClient(server, { funded: false, roles: ['admin'], scopes: ['accounts:read'] })
  noScope = await createTestClient(server, { funded: false, scopes: ['orders:read'] })
})
afterAll(async () => {
  await server?.close()
})

const transfer = (body: Record<string, unknown>, token = admin.token) => server.request('POST', `${API}/transfers`, { token, body })
const deposit = (tenant: string, currency: string, amount: string, reference: string = randomUUID()) =>
  transfer({ tenant_id: tenant, currency, amount, kind: 'deposit', reference })

describe('default scopes', () => {
  it('gives new clients accounts:read, and new admins accounts:write too', () => {
    expect(bank.scopes).toEqual([
      'symbols:read',
      'orders:read',
      'orders:write',
      'users:read',
      'users:write',
      'accounts:read',
      'webhooks:read',
      'webhooks:write',
    ])
    expect(admin.scopes).toEqual([...bank.scopes, 'accounts:write', 'audit:read'])
  })
})

describe('GET /api/exchange/v1/accounts/<CODE>', () => {
  it('answers zeros at the currency precision for an account never used', async () => {
    const res = await server.request('GET', `${API}/accounts/usd`, { token: bank.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ currency: 'USD', balance: '0.00', hold: '0.00', available: '0.00', updated_at: null })
    const irr = await server.request('GET', `${API}/accounts/IRR`, { token: bank.token })
    expect(irr.body).toMatchObject({ balance: '0', available: '0' })
  })

  it('answers 404 for an unknown currency, 403 without the scope, 401 without a token', async () => {
    const res = await server.request('GET', `${API}/accounts/XYZ`, { token: bank.token })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(errorBody('not_found', 'Currency XYZ not found'))
    const forbidden = await server.request('GET', `${API}/accounts/USD`, { token: noScope.token })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:read'))
    expect((await server.request('GET', `${API}/accounts/USD`)).status).toBe(401)
    const another = await server.request('GET', `${API}/accounts/USD?tenant_id=${other.tenantId}`, { token: bank.token })
    expect(another.status).toBe(403)
    expect(another.body).toEqual(errorBody('permission_denied', 'Token belongs to different client'))
  })
})

describe('POST /api/exchange/v1/transfers', () => {
  it('deposits (201 with the entry), and the same transfer again answers the same entry (200)', async () => {
    const body = { tenant_id: bank.tenantId, currency: 'USD', amount: '1500.5', kind: 'deposit', reference: 'wire-0001' }
    const first = await transfer(body)
    expect(first.status).toBe(201)
    expect(Object.keys(first.body)).toEqual([
      'uid',
      'created_at',
      'tenant_id',
      'currency',
      'amount',
      'balance_after',
      'kind',
      'order_uid',
      'trade_uid',
      'reference',
    ])
    expect(first.body).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      tenant_id: bank.tenantId,
      currency: 'USD',
      amount: '1500.50',
      balance_after: '1500.50',
      kind: 'deposit',
      order_uid: null,
      trade_uid: null,
      reference: 'wire-0001',
    })
    const again = await transfer({ ...body, amount: '1500.50', currency: 'usd' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const account = await server.request('GET', `${API}/accounts/USD`, { token: bank.token })
    expect(account.body).toEqual({ currency: 'USD', balance: '1500.50', hold: '0.00', available: '1500.50', updated_at: expect.stringMatching(TIMESTAMP) })
  })

  it('answers 409 for a reference used for a different transfer, and credits nothing', async () => {
    const body = { tenant_id: bank.tenantId, currency: 'EUR', amount: '10', kind: 'deposit', reference: 'wire-0002' }
    expect((await transfer(body)).status).toBe(201)
    for (const changed of [{ amount: '11' }, { currency: 'USD' }, { kind: 'withdrawal' }]) {
      const res = await transfer({ ...body, ...changed })
      expect(res.status).toBe(409)
      expect(res.body).toEqual(errorBody('conflict', 'Reference wire-0002 was used for a different transfer'))
    }
    expect((await server.request('GET', `${API}/accounts/EUR`, { token: bank.token })).body.balance).toBe('10.00')
    // References are per tenant: another tenant may use the same one.
    expect((await transfer({ ...body, tenant_id: other.tenantId })).status).toBe(201)
  })

  it('withdraws what is available, and refuses more with 422 value_error.insufficient_balance', async () => {
    const tenant = (await createTestClient(server, { funded: false })).tenantId
    await deposit(tenant, 'USDT', '100')
    const out = await transfer({ tenant_id: tenant, currency: 'USDT', amount: '40.25', kind: 'withdrawal', reference: 'payout-1' })
    expect(out.status).toBe(201)
    expect(out.body).toMatchObject({ amount: '-40.25', balance_after: '59.75', kind: 'withdrawal' })
    const res = await transfer({ tenant_id: tenant, currency: 'USDT', amount: '60', kind: 'withdrawal', reference: 'payout-2' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        {
          type: 'value_error.insufficient_balance',
          loc: ['body', 'amount'],
          msg: 'insufficient balance: USDT available 59.75, required 60.00',
          input: '60',
          ctx: { currency: 'USDT', available: '59.75', required: '60.00' },
        },
      ],
    })
    // Nothing was written: the reference is still free.
    expect((await transfer({ tenant_id: tenant, currency: 'USDT', amount: '59.75', kind: 'withdrawal', reference: 'payout-2' })).status).toBe(201)
  })

  it('checks the body: amount places, positive, known currency and tenant, the kind', async () => {
    const res = await transfer({ tenant_id: randomUUID(), currency: 'XYZ', amount: '0', kind: 'deposit', reference: 'r' })
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { type: string; loc: string[] }) => [d.type, d.loc[1]])).toEqual([
      ['value_error.tenant', 'tenant_id'],
      ['value_error.currency', 'currency'],
      ['value_error.number.not_gt', 'amount'],
    ])
    const places = await transfer({ tenant_id: bank.tenantId, currency: 'IRR', amount: '1.5', kind: 'deposit', reference: 'r' })
    expect(places.body).toEqual({
      detail: [
        {
          type: 'value_error.decimal.max_places',
          loc: ['body', 'amount'],
          msg: 'ensure that there are no more than 0 decimal places',
          input: '1.5',
          ctx: { decimal_places: 0 },
        },
      ],
    })
    const kind = await transfer({ tenant_id: bank.tenantId, currency: 'IRR', amount: '1', kind: 'trade', reference: 'r' })
    expect(kind.body.detail[0]).toMatchObject({ type: 'type_error.enum', loc: ['body', 'kind'], ctx: { enum_values: ['deposit', 'withdrawal'] } })
    const extra = await transfer({ tenant_id: bank.tenantId, currency: 'IRR', amount: '1', kind: 'deposit', reference: 'r', note: 'x' })
    expect(extra.body.detail).toEqual([{ type: 'value_error.extra', loc: ['body', 'note'], msg: 'extra fields not permitted' }])
  })

  it('is for admins with accounts:write only (403)', async () => {
    const body = { tenant_id: bank.tenantId, currency: 'USD', amount: '1', kind: 'deposit', reference: 'self-credit' }
    const client = await transfer(body, bank.token)
    expect(client.status).toBe(403)
    expect(client.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:write'))
    const writer = await createTestClient(server, { funded: false, scopes: ['accounts:write'] })
    const notAdmin = await transfer(body, writer.token)
    expect(notAdmin.status).toBe(403)
    expect(notAdmin.body).toEqual(errorBody('permission_denied', 'Access denied: requires the admin role'))
    const noWrite = await transfer(body, adminWithoutWrite.token)
    expect(noWrite.status).toBe(403)
    expect(noWrite.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:write'))
  })

  it('credits once when the same transfer arrives many times at once', async () => {
    const tenant = (await createTestClient(server, { funded: false })).tenantId
    const body = { tenant_id: tenant, currency: 'BTC', amount: '0.5', kind: 'deposit', reference: 'race' }
    const answers = await Promise.all(Array.from({ length: 6 }, () => transfer(body)))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
    expect(new Set(answers.map((a) => a.body.uid)).size).toBe(1)
    const account = await server.request('GET', `${API}/accounts/BTC?tenant_id=${tenant}`, { token: admin.token })
    expect(account.body.balance).toBe('0.50000000')
  })
})

describe('GET /api/exchange/v1/accounts and /ledger', () => {
  let tenant: TestClient
  beforeAll(async () => {
    tenant = await createTestClient(server, { funded: false })
    await deposit(tenant.tenantId, 'USD', '100', 'l-1')
    await deposit(tenant.tenantId, 'IRR', '5000000', 'l-2')
    await transfer({ tenant_id: tenant.tenantId, currency: 'USD', amount: '30', kind: 'withdrawal', reference: 'l-3' })
  })

  it("lists the tenant's accounts by currency in the list envelope", async () => {
    const res = await server.request('GET', `${API}/accounts`, { token: tenant.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      heads: ACCOUNT_HEADS,
      items: [
        { currency: 'IRR', balance: '5000000', hold: '0', available: '5000000', updated_at: expect.stringMatching(TIMESTAMP) },
        { currency: 'USD', balance: '70.00', hold: '0.00', available: '70.00', updated_at: expect.stringMatching(TIMESTAMP) },
      ],
      total: 2,
      offset: 0,
      limit: 100,
    })
    const page = await server.request('GET', `${API}/accounts?offset=1&limit=1`, { token: tenant.token })
    expect(page.body).toMatchObject({ items: [{ currency: 'USD' }], total: 2, offset: 1, limit: 1 })
    const asAdmin = await server.request('GET', `${API}/accounts?tenant_id=${tenant.tenantId}`, { token: admin.token })
    expect(asAdmin.body.items).toEqual(res.body.items)
    const extra = await server.request('GET', `${API}/accounts?currency=USD`, { token: tenant.token })
    expect(extra.status).toBe(422)
    expect(extra.body.detail).toEqual([{ type: 'value_error.extra', loc: ['query', 'currency'], msg: 'extra fields not permitted' }])
  })

  it('lists the ledger with its filters and order_by', async () => {
    const res = await server.request('GET', `${API}/ledger`, { token: tenant.token })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.heads)).toEqual([
      'uid',
      'created_at',
      'tenant_id',
      'currency',
      'amount',
      'balance_after',
      'kind',
      'order_uid',
      'trade_uid',
      'reference',
    ])
    expect(res.body.items.map((e: { reference: string; amount: string; balance_after: string }) => [e.reference, e.amount, e.balance_after])).toEqual([
      ['l-1', '100.00', '100.00'],
      ['l-2', '5000000', '5000000'],
      ['l-3', '-30.00', '70.00'],
    ])
    expect(res.body.total).toBe(3)
    const usd = await server.request('GET', `${API}/ledger?currency=usd&order_by=-created_at`, { token: tenant.token })
    expect(usd.body.items.map((e: { reference: string }) => e.reference)).toEqual(['l-3', 'l-1'])
    const withdrawals = await server.request('GET', `${API}/ledger?kind=withdrawal`, { token: tenant.token })
    expect(withdrawals.body).toMatchObject({ total: 1, items: [{ reference: 'l-3' }] })
    const none = await server.request('GET', `${API}/ledger?order_uid=${randomUUID()}&created_at_from=2026-01-01T00:00:00Z`, { token: tenant.token })
    expect(none.body).toMatchObject({ total: 0, items: [] })
    const bad = await server.request('GET', `${API}/ledger?kind=gift&updated_at_from=2026-01-01T00:00:00Z&limit=101`, { token: tenant.token })
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: { type: string; loc: string[] }) => [d.type, d.loc[1]])).toEqual([
      ['value_error.number.not_le', 'limit'],
      ['type_error.enum', 'kind'],
      ['value_error.extra', 'updated_at_from'],
    ])
    // Admins see every tenant's entries, or one tenant's.
    const one = await server.request('GET', `${API}/ledger?tenant_id=${tenant.tenantId}`, { token: admin.token })
    expect(one.body.items).toEqual(res.body.items)
    const all = await server.request('GET', `${API}/ledger?limit=1`, { token: admin.token })
    expect(all.body.total).toBeGreaterThan(3)
    const forbidden = await server.request('GET', `${API}/ledger?tenant_id=${tenant.tenantId}`, { token: bank.token })
    expect(forbidden.status).toBe(403)
    expect((await server.request('GET', `${API}/ledger`, { token: noScope.token })).status).toBe(403)
  })

  it('writes a balance event on the tenant stream with each transfer', async () => {
    const res = await server.request('GET', `${API}/events`, { token: tenant.token })
    expect(res.status).toBe(200)
    const balances = res.body.items.filter((e: { type: string }) => e.type === 'balance')
    expect(balances).toHaveLength(3)
    expect(balances[2]).toEqual({
      sequence: balances[1].sequence + 1,
      type: 'balance',
      created_at: expect.stringMatching(TIMESTAMP),
      account: { currency: 'USD', balance: '70.00', hold: '0.00', available: '70.00', updated_at: balances[2].created_at },
      entry: expect.objectContaining({ reference: 'l-3', amount: '-30.00', balance_after: '70.00' }),
      order: null,
      fill: null,
    })
    expect(Object.keys(balances[2])).toEqual(['sequence', 'type', 'created_at', 'account', 'entry', 'order', 'fill'])
  })
})

describe('GraphQL', () => {
  const ACCOUNT_FIELDS = 'currency balance hold available updatedAt'
  const ENTRY_FIELDS = 'uid createdAt tenantId currency amount balanceAfter kind orderUid tradeUid reference'
  const camel = (entry: Record<string, unknown>) => ({
    uid: entry.uid,
    createdAt: entry.created_at,
    tenantId: entry.tenant_id,
    currency: entry.currency,
    amount: entry.amount,
    balanceAfter: entry.balance_after,
    kind: entry.kind,
    orderUid: entry.order_uid,
    tradeUid: entry.trade_uid,
    reference: entry.reference,
  })
  const camelAccount = (account: Record<string, unknown>) => ({ ...account, updated_at: undefined, updatedAt: account.updated_at })

  it('answers what REST answers: accounts, account, ledger', async () => {
    const tenant = await createTestClient(server, { funded: false })
    await deposit(tenant.tenantId, 'ETH', '2.5', 'g-1')
    await deposit(tenant.tenantId, 'AED', '100', 'g-2')
    const rest = {
      accounts: await server.request('GET', `${API}/accounts`, { token: tenant.token }),
      account: await server.request('GET', `${API}/accounts/CNY`, { token: tenant.token }),
      ledger: await server.request('GET', `${API}/ledger?order_by=-currency`, { token: tenant.token }),
    }
    const res = await server.graphql<any, any>(
      `{ accounts { items { ${ACCOUNT_FIELDS} } total offset limit }
         account(currency: "cny") { ${ACCOUNT_FIELDS} }
         unknown: account(currency: "XYZ") { currency }
         ledger(orderBy: { field: currency, direction: desc }) { items { ${ENTRY_FIELDS} } total offset limit } }`,
      {},
      { token: tenant.token },
    )
    expect(res.errors).toBeUndefined()
    const strip = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(camelAccount(o)))
    expect(res.data.accounts).toEqual({ items: rest.accounts.body.items.map(strip), total: 2, offset: 0, limit: 100 })
    expect(res.data.account).toEqual(strip(rest.account.body))
    expect(res.data.unknown).toBeNull()
    expect(res.data.ledger).toEqual({ items: rest.ledger.body.items.map(camel), total: 2, offset: 0, limit: 100 })
  })

  it('createTransfer: created, replayed, CONFLICT, insufficient balance and FORBIDDEN as REST', async () => {
    const tenant = await createTestClient(server, { funded: false })
    const mutation = `mutation ($input: TransferInput!) { createTransfer(input: $input) { created entry { ${ENTRY_FIELDS} } } }`
    const input = { tenantId: tenant.tenantId, currency: 'USD', amount: '12.3', kind: 'deposit', reference: 'gql-1' }
    const first = await server.graphql<any, any>(mutation, { input }, { token: admin.token })
    expect(first.errors).toBeUndefined()
    expect(first.data.createTransfer).toMatchObject({ created: true, entry: { amount: '12.30', balanceAfter: '12.30', kind: 'deposit', reference: 'gql-1' } })
    const again = await server.graphql<any, any>(mutation, { input }, { token: admin.token })
    expect(again.data.createTransfer).toEqual({ ...first.data.createTransfer, created: false })
    const rest = await server.request('GET', `${API}/ledger`, { token: tenant.token })
    expect(first.data.createTransfer.entry).toEqual(camel(rest.body.items[0]))

    const conflict = await server.graphql<any, any>(mutation, { input: { ...input, amount: '1' } }, { token: admin.token })
    expect(conflict.errors?.[0]?.extensions).toEqual({ code: 'CONFLICT', error: 'conflict' })
    const short = await server.graphql<any, any>(
      mutation,
      { input: { ...input, kind: 'withdrawal', amount: '20', reference: 'gql-2' } },
      { token: admin.token },
    )
    expect(short.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      detail: [
        {
          type: 'value_error.insufficient_balance',
          loc: ['body', 'amount'],
          msg: 'insufficient balance: USD available 12.30, required 20.00',
          input: '20',
          ctx: { currency: 'USD', available: '12.30', required: '20.00' },
        },
      ],
    })
    const forbidden = await server.graphql<any, any>(mutation, { input: { ...input, reference: 'gql-3' } }, { token: bank.token })
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' })
    expect(forbidden.errors?.[0]?.message).toBe('Access denied: requires accounts:write')
  })

  it('shows the fee rates on Symbol', async () => {
    const res = await server.graphql<any, any>('{ symbol(symbol: "USD-IRR") { makerFeePercent takerFeePercent } }', {}, { token: bank.token })
    expect(res.data.symbol).toEqual({ makerFeePercent: '0', takerFeePercent: '0' })
    const rest = await server.request('GET', `${API}/symbols/USD-IRR`, { token: bank.token })
    expect(rest.body).toMatchObject({ maker_fee_percent: '0', taker_fee_percent: '0' })
  })
})

describe('applyAccountChanges and the check', () => {
  it('applies a batch per account in one go, refuses what would leave less than nothing available, and the check agrees', async () => {
    const db = server.services.db
    const a = (await createTestClient(server, { funded: false })).tenantId
    const b = (await createTestClient(server, { funded: false })).tenantId
    await deposit(a, 'USDT', '100', 'batch-a')
    await deposit(b, 'BTC', '1', 'batch-b')
    // A hold beyond what is available is refused, naming the account, and nothing changes.
    const refused = await db.transaction().execute((trx) => applyAccountChanges(trx, [{ tenant_id: a, currency: 'USDT', hold: '100.01' }]))
    expect(refused).toEqual({ ok: false, refused: [{ tenant_id: a, currency: 'USDT', available: '100', required: '100.01' }] })
    // A trade settled: b sells 0.01 BTC to a for 60 USDT, a pays 0.06 fee; several changes to one account are grouped.
    const trade = randomUUID()
    const applied = await db.transaction().execute((trx) =>
      applyAccountChanges(
        trx,
        [
          { tenant_id: b, currency: 'BTC', entries: [{ kind: 'trade', amount: '-0.01', trade_uid: trade }] },
          { tenant_id: a, currency: 'USDT', entries: [{ kind: 'trade', amount: '-60', trade_uid: trade }] },
          { tenant_id: a, currency: 'USDT', entries: [{ kind: 'fee', amount: '-0.06', trade_uid: trade }] },
          { tenant_id: a, currency: 'BTC', entries: [{ kind: 'trade', amount: '0.01', trade_uid: trade }] },
          { tenant_id: b, currency: 'USDT', entries: [{ kind: 'trade', amount: '60', trade_uid: trade }] },
        ],
        { fees: [{ currency: 'USDT', amount: '0.06' }] },
      ),
    )
    if (!applied.ok) throw new Error('refused')
    const summary = applied.accounts.map(({ account, entries }) => [account.tenant_id === a ? 'a' : 'b', account.currency, account.balance, entries.length])
    expect(summary.sort()).toEqual([
      ['a', 'BTC', '0.01', 1],
      ['a', 'USDT', '39.94', 2],
      ['b', 'BTC', '0.99', 1],
      ['b', 'USDT', '60', 1],
    ])
    const usdt = applied.accounts.find((c) => c.account.tenant_id === a && c.account.currency === 'USDT')!
    expect(usdt.entries.map((e) => e.balance_after)).toEqual(['40', '39.94'])
    expect((await checkAccounts(db)).discrepancies).toEqual([])

    // A balance changed behind the ledger's back, and a hold no order accounts for, are named.
    await db.updateTable('accounts').set({ balance: '40', hold: '1' }).where('tenant_id', '=', a).where('currency', '=', 'USDT').execute()
    const { discrepancies } = await checkAccounts(db)
    expect(discrepancies.map((d) => d.check).sort()).toEqual(['conservation', 'hold', 'ledger'])
    expect(discrepancies.find((d) => d.check === 'ledger')?.message).toBe(`account ${a} USDT: balance 40 != ledger sum 39.94`)
    await db.updateTable('accounts').set({ balance: '39.94', hold: '0' }).where('tenant_id', '=', a).where('currency', '=', 'USDT').execute()
    expect((await checkAccounts(db)).discrepancies).toEqual([])
  })
})
