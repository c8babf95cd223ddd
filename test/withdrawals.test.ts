import { randomUUID } from 'node:crypto'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { failure, runCommand } from '../src/app/cli-commands.ts'
import { DEFAULT_SCOPES } from '../src/modules/auth/clients/clients.ts'
import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import type { CommandResult } from './helpers/process.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const API = '/api/exchange/v1'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SHEBA = 'IR062960000000100324200001'
const errorBody = (error: string, message: string) => ({ message, error, detail: message })
const WITHDRAW_SCOPES = [...DEFAULT_SCOPES, 'accounts:withdraw']

let server: TestServer
let admin: TestClient
let admin2: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  admin = await createTestClient(server, { funded: false, roles: ['admin'] })
  admin2 = await createTestClient(server, { funded: false, roles: ['admin'] })
})
afterAll(async () => {
  await server?.close()
})

/** One CLI command on the server's database, as the CLI would answer it. */
async function cli(...args: string[]): Promise<CommandResult> {
  let stdout = ''
  try {
    await runCommand(server.config, server.services.db, args, (text) => void (stdout += text))
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    return { ...failure(error), stdout }
  }
}

interface Bank extends TestClient {
  usd: string
  irr: string
}

/** A bank allowed to withdraw, funded by deposits, with a USD and an IRR destination. */
async function newBank(usd = '1000', irr = '1000000'): Promise<Bank> {
  const bank = await createTestClient(server, { funded: false, scopes: WITHDRAW_SCOPES })
  for (const [currency, amount] of [
    ['USD', usd],
    ['IRR', irr],
  ] as const) {
    const res = await server.request('POST', `${API}/transfers`, {
      token: admin.token,
      body: { tenant_id: bank.tenantId, currency, amount, kind: 'deposit', reference: randomUUID() },
    })
    expect(res.status).toBe(201)
  }
  const destination = async (currency: string, iban: string) => {
    const res = await server.request('POST', `${API}/destinations`, { token: admin.token, body: { tenant_id: bank.tenantId, currency, label: currency, iban } })
    expect(res.status).toBe(201)
    return res.body.uid as string
  }
  return { ...bank, usd: await destination('USD', 'GB82WEST12345698765432'), irr: await destination('IRR', SHEBA) }
}

const request = (bank: TestClient, body: Record<string, unknown>) => server.request('POST', `${API}/withdrawals`, { token: bank.token, body })
const approve = (uid: string, token = admin.token, body?: unknown) => server.request('POST', `${API}/withdrawals/${uid}/approve`, { token, body })
const reject = (uid: string, body: unknown, token = admin.token) => server.request('POST', `${API}/withdrawals/${uid}/reject`, { token, body })
const cancel = (bank: TestClient, uid: string) => server.request('DELETE', `${API}/withdrawals/${uid}`, { token: bank.token })
const account = async (bank: TestClient, currency = 'USD') => (await server.request('GET', `${API}/accounts/${currency}`, { token: bank.token })).body

describe('POST /api/exchange/v1/withdrawals', () => {
  it('holds the amount at once and answers the pending withdrawal (201); the same request again is 200, nothing held twice', async () => {
    const bank = await newBank()
    const body = { currency: 'usd', amount: '250.5', destination_uid: bank.usd, reference: 'payout-1' }
    const res = await request(bank, body)
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual([
      'uid',
      'tenant_id',
      'currency',
      'amount',
      'destination_uid',
      'reference',
      'status',
      'approvals',
      'created_at',
      'updated_at',
      'decided_at',
      'reason',
    ])
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      tenant_id: bank.tenantId,
      currency: 'USD',
      amount: '250.50',
      destination_uid: bank.usd,
      reference: 'payout-1',
      status: 'pending',
      approvals: [],
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: res.body.created_at,
      decided_at: null,
      reason: null,
    })
    expect(await account(bank)).toMatchObject({ balance: '1000.00', hold: '250.50', available: '749.50' })

    const again = await request(bank, { ...body, amount: '250.50' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(res.body)
    expect(await account(bank)).toMatchObject({ hold: '250.50' })

    const other = await request(bank, { ...body, amount: '1' })
    expect(other.status).toBe(409)
    expect(other.body).toEqual(errorBody('conflict', 'Reference payout-1 was used for a different withdrawal'))
    expect(await account(bank)).toMatchObject({ hold: '250.50' })
  })

  it('refuses what is not available: 422 value_error.insufficient_balance, nothing held', async () => {
    const bank = await newBank('100')
    const res = await request(bank, { currency: 'USD', amount: '100.01', destination_uid: bank.usd, reference: 'too-much' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        {
          type: 'value_error.insufficient_balance',
          loc: ['body', 'amount'],
          msg: 'insufficient balance: USD available 100.00, required 100.01',
          input: '100.01',
          ctx: { currency: 'USD', available: '100.00', required: '100.01' },
        },
      ],
    })
    expect(await account(bank)).toMatchObject({ hold: '0.00', available: '100.00' })
    const list = await server.request('GET', `${API}/withdrawals`, { token: bank.token })
    expect(list.body.total).toBe(0)
  })

  it("refuses another tenant's destination, or one of another currency: 422 value_error.destination", async () => {
    const bank = await newBank()
    const other = await newBank()
    for (const [currency, destination] of [
      ['USD', other.usd],
      ['USD', bank.irr],
      ['USD', randomUUID()],
    ] as const) {
      const res = await request(bank, { currency, amount: '1', destination_uid: destination, reference: randomUUID() })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        detail: [
          {
            type: 'value_error.destination',
            loc: ['body', 'destination_uid'],
            msg: `no destination ${destination} of this tenant in USD`,
            input: destination,
          },
        ],
      })
    }
    expect(await account(bank)).toMatchObject({ hold: '0.00' })
  })

  it('names every problem of a bad body: unknown currency, zero, too many places, missing fields', async () => {
    const bank = await newBank()
    const zero = await request(bank, { currency: 'XYZ', amount: '0', destination_uid: bank.usd, reference: 'r' })
    expect(zero.status).toBe(422)
    expect(zero.body.detail.map((d: any) => d.type)).toEqual(['value_error.currency', 'value_error.number.not_gt', 'value_error.destination'])
    const places = await request(bank, { currency: 'USD', amount: '1.001', destination_uid: bank.usd, reference: 'r' })
    expect(places.body.detail).toEqual([
      {
        type: 'value_error.decimal.max_places',
        loc: ['body', 'amount'],
        msg: 'ensure that there are no more than 2 decimal places',
        input: '1.001',
        ctx: { decimal_places: 2 },
      },
    ])
    const missing = await request(bank, { currency: 'USD' })
    expect(missing.status).toBe(422)
    expect(missing.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
      ['missing', ['body', 'amount']],
      ['missing', ['body', 'destination_uid']],
      ['missing', ['body', 'reference']],
    ])
  })

  it('needs accounts:withdraw, which no client gets by default (403)', async () => {
    const plain = await createTestClient(server, { funded: false })
    expect(plain.scopes).not.toContain('accounts:withdraw')
    const res = await request(plain, { currency: 'USD', amount: '1', destination_uid: randomUUID(), reference: 'r' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(errorBody('permission_denied', 'Access denied: requires accounts:withdraw'))
  })
})

describe('daily limits (account set-limit)', () => {
  it('counts pending and completed withdrawals of the UTC day; over it is 422 value_error.withdrawal_limit with limit and used', async () => {
    const bank = await newBank()
    const set = await cli('account', 'set-limit', '--tenant', bank.tenantId, '--currency', 'usd', '--daily', '300')
    expect(set).toEqual({ code: 0, stdout: `${JSON.stringify({ tenant_id: bank.tenantId, currency: 'USD', daily: '300.00' })}\n`, stderr: '' })
    const first = await request(bank, { currency: 'USD', amount: '100', destination_uid: bank.usd, reference: 'l-1' })
    expect((await approve(first.body.uid)).body.status).toBe('completed')
    const second = await request(bank, { currency: 'USD', amount: '150', destination_uid: bank.usd, reference: 'l-2' })
    expect(second.status).toBe(201)
    const cancelled = await request(bank, { currency: 'USD', amount: '40', destination_uid: bank.usd, reference: 'l-3' })
    expect((await cancel(bank, cancelled.body.uid)).body.status).toBe('cancelled')

    const over = await request(bank, { currency: 'USD', amount: '50.01', destination_uid: bank.usd, reference: 'l-4' })
    expect(over.status).toBe(422)
    expect(over.body).toEqual({
      detail: [
        {
          type: 'value_error.withdrawal_limit',
          loc: ['body', 'amount'],
          msg: 'daily withdrawal limit exceeded: USD limit 300.00, used today 250.00',
          input: '50.01',
          ctx: { limit: '300.00', used: '250.00' },
        },
      ],
    })
    expect((await request(bank, { currency: 'USD', amount: '50', destination_uid: bank.usd, reference: 'l-5' })).status).toBe(201)
    // Other currencies and tenants are not limited by it.
    expect((await request(bank, { currency: 'IRR', amount: '500000', destination_uid: bank.irr, reference: 'l-6' })).status).toBe(201)

    expect((await cli('account', 'set-limit', '--tenant', bank.tenantId, '--currency', 'USD', '--daily', 'none')).stdout).toBe(
      `${JSON.stringify({ tenant_id: bank.tenantId, currency: 'USD', daily: null })}\n`,
    )
    expect((await request(bank, { currency: 'USD', amount: '100', destination_uid: bank.usd, reference: 'l-7' })).status).toBe(201)
  })

  it('counts a withdrawal in the UTC day it was asked in: one a microsecond before midnight is the day before, one at midnight the new day', async () => {
    const bank = await newBank()
    expect((await cli('account', 'set-limit', '--tenant', bank.tenantId, '--currency', 'USD', '--daily', '100')).code).toBe(0)
    // The service's clock is the database's (`now()`, no other to inject): a withdrawal is moved
    // across the boundary instead, to either side of the midnight that began the database's UTC day.
    const askedAt = (uid: string, sinceMidnight: string) =>
      sql`update withdrawals set created_at = date_trunc('day', timezone('utc', now())) + ${sinceMidnight}::interval where uid = ${uid}`.execute(
        server.services.db,
      )
    const usd = (amount: string, reference: string) => request(bank, { currency: 'USD', amount, destination_uid: bank.usd, reference })

    const late = await usd('80', 'day-1')
    expect(late.status).toBe(201)
    await askedAt(late.body.uid, '-1 microsecond')
    // Yesterday's 80 is not today's: 80 more fits in today's 100.
    const early = await usd('80', 'day-2')
    expect(early.status).toBe(201)
    await askedAt(early.body.uid, '0 seconds')
    // Midnight itself is today's: 80 used, so 20.01 more is over.
    const over = await usd('20.01', 'day-3')
    expect(over.status).toBe(422)
    expect(over.body.detail).toEqual([
      {
        type: 'value_error.withdrawal_limit',
        loc: ['body', 'amount'],
        msg: 'daily withdrawal limit exceeded: USD limit 100.00, used today 80.00',
        input: '20.01',
        ctx: { limit: '100.00', used: '80.00' },
      },
    ])
    expect((await usd('20', 'day-4')).status).toBe(201)

    // As listed: the first just before a midnight, the second on it, a day apart.
    const listed = await server.request('GET', `${API}/withdrawals?currency=USD&limit=100`, { token: bank.token })
    const createdAt = (uid: string) => listed.body.items.find((w: { uid: string }) => w.uid === uid).created_at as string
    const [lateDay, lateTime] = createdAt(late.body.uid).split('T')
    const [earlyDay, earlyTime] = createdAt(early.body.uid).split('T')
    expect([lateTime, earlyTime]).toEqual(['23:59:59.999999', '00:00:00.000000'])
    expect(Date.parse(`${earlyDay}T00:00:00Z`) - Date.parse(`${lateDay}T00:00:00Z`)).toBe(86_400_000)
  })

  it('refuses bad settings, naming the flag (exit 1), and a missing flag (exit 2)', async () => {
    const bad = await cli('account', 'set-limit', '--tenant', randomUUID(), '--currency', 'XYZ', '--daily', '5 USD')
    expect(bad.code).toBe(1)
    expect(bad.stderr.split('\n').slice(1, 4)).toEqual([
      expect.stringMatching(/^ {2}--tenant: unknown tenant /),
      '  --currency: unknown currency XYZ',
      '  --daily: must be a decimal amount (0 or more), or none',
    ])
    const missing = await cli('account', 'set-limit', '--currency', 'USD', '--daily', '5')
    expect(missing.code).toBe(2)
    expect(missing.stderr.split('\n')[0]).toBe('account set-limit needs --tenant')
    const threshold = await cli('account', 'set-threshold', '--currency', 'USD', '0')
    expect(threshold.code).toBe(1)
    expect(threshold.stderr.split('\n')[1]).toBe('  AMOUNT: ensure this value is greater than 0')
  })
})

describe('four eyes', () => {
  it('one approval completes: the withdrawal ledger entry and the hold released in one change', async () => {
    const bank = await newBank()
    const { body } = await request(bank, { currency: 'USD', amount: '200', destination_uid: bank.usd, reference: 'a-1' })
    const res = await approve(body.uid, admin.token, { reason: 'checked' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      ...body,
      status: 'completed',
      approvals: [{ client_id: admin.clientId, created_at: expect.stringMatching(TIMESTAMP), reason: 'checked' }],
      updated_at: expect.stringMatching(TIMESTAMP),
      decided_at: res.body.updated_at,
    })
    expect(await account(bank)).toMatchObject({ balance: '800.00', hold: '0.00', available: '800.00' })
    const ledger = await server.request('GET', `${API}/ledger?kind=withdrawal`, { token: bank.token })
    expect(ledger.body.items).toEqual([
      expect.objectContaining({
        amount: '-200.00',
        balance_after: '800.00',
        kind: 'withdrawal',
        reference: `withdrawal:${body.uid}`,
        created_at: res.body.decided_at,
      }),
    ])
    // Final: every other move is 409.
    const again = await approve(body.uid, admin2.token)
    expect(again.status).toBe(409)
    expect(again.body).toEqual(errorBody('conflict', `Withdrawal ${body.uid} is completed; only a pending withdrawal can be approved`))
    expect((await reject(body.uid, { reason: 'late' })).status).toBe(409)
    const late = await cancel(bank, body.uid)
    expect(late.status).toBe(409)
    expect(late.body).toEqual(errorBody('conflict', `Withdrawal ${body.uid} is completed; only a pending withdrawal can be cancelled`))
  })

  it('at or above the threshold needs two different admins; the same admin twice is 409', async () => {
    const bank = await newBank()
    expect((await cli('account', 'set-threshold', '--currency', 'IRR', '500000')).stdout).toBe(
      `${JSON.stringify({ currency: 'IRR', approval_threshold: '500000' })}\n`,
    )
    try {
      const below = await request(bank, { currency: 'IRR', amount: '499999', destination_uid: bank.irr, reference: 't-1' })
      expect((await approve(below.body.uid)).body.status).toBe('completed')

      const at = await request(bank, { currency: 'IRR', amount: '500000', destination_uid: bank.irr, reference: 't-2' })
      const first = await approve(at.body.uid)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ status: 'pending', decided_at: null, approvals: [{ client_id: admin.clientId, reason: null }] })
      expect(await account(bank, 'IRR')).toMatchObject({ balance: '500001', hold: '500000' })
      const twice = await approve(at.body.uid)
      expect(twice.status).toBe(409)
      expect(twice.body).toEqual(errorBody('conflict', `Withdrawal ${at.body.uid} was already approved by this client`))
      const second = await approve(at.body.uid, admin2.token)
      expect(second.body).toMatchObject({ status: 'completed', approvals: [{ client_id: admin.clientId }, { client_id: admin2.clientId }] })
      expect(await account(bank, 'IRR')).toMatchObject({ balance: '1', hold: '0', available: '1' })
    } finally {
      await cli('account', 'set-threshold', '--currency', 'IRR', 'none')
    }
  })

  it('the requesting client never approves its own (403), even as an admin', async () => {
    const bank = await newBank()
    const requester = await createTestClient(server, {
      funded: false,
      tenant_id: bank.tenantId,
      roles: ['admin'],
      scopes: ['accounts:read', 'accounts:write', 'accounts:withdraw'],
    })
    const { body } = await request(requester, { currency: 'USD', amount: '5', destination_uid: bank.usd, reference: 'own' })
    const res = await approve(body.uid, requester.token)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(errorBody('permission_denied', 'Access denied: the client that requested a withdrawal cannot approve it'))
    expect((await approve(body.uid)).body.status).toBe('completed')
  })

  it('reject (admins, a reason required) releases the hold and keeps the reason', async () => {
    const bank = await newBank()
    const { body } = await request(bank, { currency: 'USD', amount: '300', destination_uid: bank.usd, reference: 'r-1' })
    const noReason = await reject(body.uid, {})
    expect(noReason.status).toBe(422)
    expect(noReason.body.detail).toEqual([{ type: 'missing', loc: ['body', 'reason'], msg: 'Field required' }])
    expect((await reject(body.uid, { reason: 'x' }, bank.token)).status).toBe(403)
    const res = await reject(body.uid, { reason: 'Destination not confirmed' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'Destination not confirmed', approvals: [], decided_at: expect.stringMatching(TIMESTAMP) })
    expect(await account(bank)).toMatchObject({ balance: '1000.00', hold: '0.00' })
    expect((await approve(body.uid)).status).toBe(409)
    expect((await cancel(bank, body.uid)).status).toBe(409)
  })

  it('cancel: the bank takes back its own pending withdrawal; others 403, unknown 404, twice 409', async () => {
    const bank = await newBank()
    const other = await newBank()
    const { body } = await request(bank, { currency: 'USD', amount: '10', destination_uid: bank.usd, reference: 'c-1' })
    const stranger = await cancel(other, body.uid)
    expect(stranger.status).toBe(403)
    expect(stranger.body).toEqual(errorBody('permission_denied', 'Token belongs to different client'))
    const res = await cancel(bank, body.uid.toUpperCase())
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ uid: body.uid, status: 'cancelled', reason: null })
    expect(await account(bank)).toMatchObject({ hold: '0.00', balance: '1000.00' })
    expect((await cancel(bank, body.uid)).status).toBe(409)
    for (const uid of [randomUUID(), 'not-a-uuid']) {
      const missing = await cancel(bank, uid)
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual(errorBody('not_found', `Withdrawal ${uid} not found`))
      expect((await approve(uid)).status).toBe(404)
    }
  })
})

describe('reading withdrawals', () => {
  it("lists a bank's own with status and currency filters; admins all or one tenant's; one by uid", async () => {
    const bank = await newBank()
    const other = await newBank()
    const a = (await request(bank, { currency: 'USD', amount: '1', destination_uid: bank.usd, reference: 'list-1' })).body
    const b = (await request(bank, { currency: 'IRR', amount: '2', destination_uid: bank.irr, reference: 'list-2' })).body
    const c = (await request(other, { currency: 'USD', amount: '3', destination_uid: other.usd, reference: 'list-1' })).body
    const done = (await approve(b.uid)).body

    const own = await server.request('GET', `${API}/withdrawals`, { token: bank.token })
    expect(own.status).toBe(200)
    expect(Object.keys(own.body.heads)).toEqual([
      'uid',
      'tenant_id',
      'currency',
      'amount',
      'destination_uid',
      'reference',
      'status',
      'approvals',
      'created_at',
      'updated_at',
      'decided_at',
      'reason',
    ])
    expect(own.body).toMatchObject({ items: [a, done], total: 2, offset: 0, limit: 100 })
    expect((await server.request('GET', `${API}/withdrawals?status=pending`, { token: bank.token })).body.items).toEqual([a])
    expect((await server.request('GET', `${API}/withdrawals?currency=irr`, { token: bank.token })).body.items).toEqual([done])
    const theirs = await server.request('GET', `${API}/withdrawals?tenant_id=${other.tenantId}`, { token: admin.token })
    expect(theirs.body.items).toEqual([c])
    const all = await server.request('GET', `${API}/withdrawals?limit=100`, { token: admin.token })
    expect(all.body.items).toEqual(expect.arrayContaining([a, done, c]))
    expect((await server.request('GET', `${API}/withdrawals?tenant_id=${other.tenantId}`, { token: bank.token })).status).toBe(403)
    expect((await server.request('GET', `${API}/withdrawals?status=done`, { token: bank.token })).status).toBe(422)

    expect((await server.request('GET', `${API}/withdrawals/${a.uid}`, { token: bank.token })).body).toEqual(a)
    expect((await server.request('GET', `${API}/withdrawals/${c.uid}`, { token: admin.token })).body).toEqual(c)
    const foreign = await server.request('GET', `${API}/withdrawals/${c.uid}`, { token: bank.token })
    expect(foreign.status).toBe(403)
    expect((await server.request('GET', `${API}/withdrawals/nope`, { token: bank.token })).status).toBe(404)
  })

  it('every change is a `withdrawal` event on the tenant stream, after the balance event of its hold', async () => {
    const bank = await newBank()
    const start = (await server.request('GET', `${API}/events`, { token: bank.token })).body.items.at(-1)?.sequence ?? 0
    const requested = (await request(bank, { currency: 'USD', amount: '7', destination_uid: bank.usd, reference: 'ev-1' })).body
    const completed = (await approve(requested.uid)).body
    const events = await server.request('GET', `${API}/events?after=${start}`, { token: bank.token })
    expect(events.body.items.map((e: any) => e.type)).toEqual(['balance', 'withdrawal', 'balance', 'withdrawal'])
    const [holdEvent, first, , second] = events.body.items
    expect(holdEvent.account).toMatchObject({ currency: 'USD', hold: '7.00' })
    expect(first).toEqual({ sequence: start + 2, type: 'withdrawal', created_at: requested.created_at, withdrawal: requested })
    expect(second).toEqual({ sequence: start + 4, type: 'withdrawal', created_at: completed.updated_at, withdrawal: completed })
    // A caller without accounts:read does not get them.
    const narrow = await createTestClient(server, { funded: false, tenant_id: bank.tenantId, scopes: ['orders:read'] })
    const seen = await server.request('GET', `${API}/events?after=${start}`, { token: narrow.token })
    expect(seen.body.items).toEqual([])
  })
})

describe('GraphQL parity', () => {
  const FIELDS = 'uid tenantId currency amount destinationUid reference status approvals { clientId createdAt reason } createdAt updatedAt decidedAt reason'
  const camel = (w: any) => ({
    uid: w.uid,
    tenantId: w.tenant_id,
    currency: w.currency,
    amount: w.amount,
    destinationUid: w.destination_uid,
    reference: w.reference,
    status: w.status,
    approvals: w.approvals.map((a: any) => ({ clientId: a.client_id, createdAt: a.created_at, reason: a.reason })),
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    decidedAt: w.decided_at,
    reason: w.reason,
  })
  const requestDoc = `mutation ($input: WithdrawalInput!) { requestWithdrawal(input: $input) { created withdrawal { ${FIELDS} } } }`

  it('one scenario through both faces: request, replay, approve, reject, cancel, lists and errors', async () => {
    const bank = await newBank()
    const input = { currency: 'USD', amount: '12.5', destinationUid: bank.usd, reference: 'gql-1' }
    const created = await server.graphql<any, any>(requestDoc, { input }, { token: bank.token })
    expect(created.errors).toBeUndefined()
    const rest = await server.request('GET', `${API}/withdrawals/${created.data.requestWithdrawal.withdrawal.uid}`, { token: bank.token })
    expect(created.data.requestWithdrawal).toEqual({ created: true, withdrawal: camel(rest.body) })
    const again = await server.graphql<any, any>(requestDoc, { input }, { token: bank.token })
    expect(again.data.requestWithdrawal).toEqual({ created: false, withdrawal: camel(rest.body) })
    const conflict = await server.graphql<any, any>(requestDoc, { input: { ...input, amount: '1' } }, { token: bank.token })
    expect(conflict.errors?.[0]?.extensions).toEqual({ code: 'CONFLICT', error: 'conflict' })
    const restLimit = await request(bank, { currency: 'USD', amount: '5000', destination_uid: bank.usd, reference: 'gql-x' })
    const gqlLimit = await server.graphql<any, any>(requestDoc, { input: { ...input, amount: '5000', reference: 'gql-x' } }, { token: bank.token })
    expect(gqlLimit.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail: restLimit.body.detail })

    const approveDoc = `mutation ($uid: ID!, $reason: String) { approveWithdrawal(uid: $uid, reason: $reason) { ${FIELDS} } }`
    const approved = await server.graphql<any, any>(approveDoc, { uid: rest.body.uid, reason: 'ok' }, { token: admin.token })
    expect(approved.errors).toBeUndefined()
    const afterApprove = await server.request('GET', `${API}/withdrawals/${rest.body.uid}`, { token: bank.token })
    expect(approved.data.approveWithdrawal).toEqual(camel(afterApprove.body))
    const final = await server.graphql<any, any>(approveDoc, { uid: rest.body.uid }, { token: admin2.token })
    expect(final.errors?.[0]?.extensions).toEqual({ code: 'CONFLICT', error: 'conflict' })

    const second = (await request(bank, { currency: 'USD', amount: '1', destination_uid: bank.usd, reference: 'gql-2' })).body
    const rejectDoc = `mutation ($uid: ID!, $reason: String!) { rejectWithdrawal(uid: $uid, reason: $reason) { ${FIELDS} } }`
    const rejected = await server.graphql<any, any>(rejectDoc, { uid: second.uid, reason: 'no' }, { token: admin.token })
    expect(rejected.data.rejectWithdrawal).toEqual(camel((await server.request('GET', `${API}/withdrawals/${second.uid}`, { token: bank.token })).body))

    const third = (await request(bank, { currency: 'USD', amount: '1', destination_uid: bank.usd, reference: 'gql-3' })).body
    const cancelDoc = `mutation ($uid: ID!) { cancelWithdrawal(uid: $uid) { ${FIELDS} } }`
    const cancelled = await server.graphql<any, any>(cancelDoc, { uid: third.uid }, { token: bank.token })
    expect(cancelled.data.cancelWithdrawal).toMatchObject({ status: 'cancelled' })
    const denied = await server.graphql<any, any>(cancelDoc, { uid: third.uid }, { token: admin.token })
    expect(denied.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' })

    const lists = await server.graphql<any, any>(
      `query ($uid: ID!) { withdrawals(filter: { status: cancelled }) { items { ${FIELDS} } total offset limit }
        withdrawal(uid: $uid) { ${FIELDS} } missing: withdrawal(uid: "nope") { uid } }`,
      { uid: third.uid },
      { token: bank.token },
    )
    const restList = await server.request('GET', `${API}/withdrawals?status=cancelled`, { token: bank.token })
    expect(lists.errors).toBeUndefined()
    expect(lists.data).toEqual({
      withdrawals: { items: restList.body.items.map(camel), total: 1, offset: 0, limit: 100 },
      withdrawal: camel(restList.body.items[0]),
      missing: null,
    })
  })
})

describe('account check', () => {
  it('counts pending withdrawals as holds, and finds everything accounted for', async () => {
    const bank = await newBank()
    await request(bank, { currency: 'USD', amount: '3', destination_uid: bank.usd, reference: 'chk' })
    expect(await checkAccounts(server.services.db)).toMatchObject({ discrepancies: [] })
    const check = await cli('account', 'check')
    expect(check.code).toBe(0)
  })
})
