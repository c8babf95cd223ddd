import { type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { convert } from 'xmlbuilder2'

import { failure, runCommand } from '../src/app/cli-commands.ts'
import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimalAtLeast, subtract } from '../src/core/decimal.ts'
import { storedDecimalAtLeast } from '../src/modules/exchange/accounts/statement-formats.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * Statements (docs/accounts.md, "Statements"; docs/api.md, "Statements"): a known history read
 * back in each form, the period's rules, who may read whose, and memory that does not grow with
 * the number of entries.
 */
let server: TestServer
let bank: TestClient
let other: TestClient
let admin: TestClient
let currency: string

const API = '/api/exchange/v1/accounts'
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`
const ORDER = '11111111-1111-7111-8111-111111111111'
const TRADE = '22222222-2222-7222-8222-222222222222'

/** One account's history: [n, created_at (UTC), kind, amount, balance_after, order/trade?, reference]. */
const HISTORY: [number, string, string, string, string, boolean, string | null][] = [
  [1, '2026-01-10 10:00:00', 'deposit', '1000.00', '1000.00', false, 'wire-1'],
  [2, '2026-02-01 09:00:00', 'trade', '-250.50', '749.50', true, null],
  [3, '2026-02-01 09:00:00', 'fee', '-0.25', '749.25', true, null],
  [4, '2026-02-15 12:30:00.5', 'deposit', '100.00', '849.25', false, 'wire "2", with a comma'],
  [5, '2026-03-05 00:00:00', 'withdrawal', '-49.25', '800.00', false, 'payout-1'],
]

async function insertHistory(tenantId: string, code: string): Promise<void> {
  const db = server.services.db
  await sql`insert into accounts (tenant_id, currency, balance) values (${tenantId}, ${code}, 800)`.execute(db)
  for (const [n, at, kind, amount, after, traded, reference] of HISTORY) {
    await sql`
      insert into ledger_entries (uid, created_at, tenant_id, currency, amount, balance_after, kind, order_uid, trade_uid, reference)
      values (${uid(n)}, ${at}::timestamp(6), ${tenantId}, ${code}, ${amount}::numeric, ${after}::numeric, ${kind},
        ${traded ? ORDER : null}::uuid, ${traded ? TRADE : null}::uuid, ${reference})`.execute(db)
  }
}

beforeAll(async () => {
  server = await startTestServer()
  ;[bank, other, admin] = await Promise.all([
    createTestClient(server, { funded: false }),
    createTestClient(server, { funded: false }),
    createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false }),
  ])
  currency = (await createMarket(server.services.db, {}, { funded: false })).split('-')[1]!
  await insertHistory(bank.tenantId, currency)
})
afterAll(async () => {
  await server?.close()
})

const PERIOD = 'from=2026-02-01T00:00:00Z&to=2026-03-05T00:00:00Z'
const statement = (query: string, token = bank.token, headers: Record<string, string> = {}, code = currency) =>
  server.request('GET', `${API}/${code}/statement?${query}`, { token, headers })

const entry = (n: number) => {
  const [, at, kind, amount, after, traded, reference] = HISTORY[n - 1]!
  const [date, time] = at.split(' ')
  const [hms, frac = ''] = time!.split('.')
  return {
    uid: uid(n),
    created_at: `${date}T${hms}.${frac.padEnd(6, '0')}`,
    tenant_id: bank.tenantId,
    currency,
    amount,
    balance_after: after,
    kind,
    order_uid: traded ? ORDER : null,
    trade_uid: traded ? TRADE : null,
    reference,
  }
}

const expectedStatement = () => ({
  tenant_id: bank.tenantId,
  currency,
  from: '2026-02-01T00:00:00.000000',
  to: '2026-03-05T00:00:00.000000',
  opening_balance: '1000.00',
  closing_balance: '849.25',
  total_credits: '100.00',
  total_debits: '250.75',
  entry_count: 3,
  entries: [entry(2), entry(3), entry(4)],
})

describe('GET /api/exchange/v1/accounts/<CODE>/statement', () => {
  it('answers the period as JSON: figures first, then every entry oldest first; [from, to) with zones', async () => {
    const res = await statement(PERIOD)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.body).toEqual(expectedStatement())
    expect(Object.keys(res.body)).toEqual(Object.keys(expectedStatement()))
    // The same instants in another zone; the currency in lower case.
    const zoned = await statement(
      `from=${encodeURIComponent('2026-02-01T03:30:00+03:30')}&to=${encodeURIComponent('2026-03-05T03:30:00+03:30')}`,
      bank.token,
      {},
      currency.toLowerCase(),
    )
    expect(zoned.body).toEqual(expectedStatement())
    // Unknown Accept: JSON, as the event lists do.
    expect((await statement(PERIOD, bank.token, { accept: 'image/png' })).body).toEqual(expectedStatement())
    // An empty period; the balance before it carried through.
    const empty = await statement('from=2026-06-01T00:00:00Z&to=2026-07-01T00:00:00Z')
    expect(empty.body).toMatchObject({
      opening_balance: '800.00',
      closing_balance: '800.00',
      total_credits: '0.00',
      total_debits: '0.00',
      entry_count: 0,
      entries: [],
    })
  })

  it('closing balance = opening + credits − debits = the balance_after of the last entry before `to`', async () => {
    for (const [from, to] of [
      ['2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z'],
      ['2026-01-10T10:00:00Z', '2026-02-15T12:30:00.5Z'],
      ['2026-02-01T09:00:00Z', '2026-02-15T12:30:00.500001Z'],
    ]) {
      const { body } = await statement(`from=${from}&to=${to}`)
      const total = subtract(add(decimalFromStore(body.opening_balance), decimalFromStore(body.total_credits)), decimalFromStore(body.total_debits))
      expect(compareDecimals(total, decimalFromStore(body.closing_balance))).toBe(0)
      const last = body.entries.at(-1)
      if (last) expect(body.closing_balance).toBe(last.balance_after)
      expect(body.entry_count).toBe(body.entries.length)
    }
  })

  it('answers CSV with Accept: text/csv (RFC 4180 quoting, CRLF)', async () => {
    const res = await server.request('GET', `${API}/${currency}/statement?${PERIOD}`, { token: bank.token, headers: { accept: 'text/csv' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.text).toBe(
      [
        'created_at,uid,kind,amount,balance_after,order_uid,trade_uid,reference',
        `2026-02-01T09:00:00.000000,${uid(2)},trade,-250.50,749.50,${ORDER},${TRADE},`,
        `2026-02-01T09:00:00.000000,${uid(3)},fee,-0.25,749.25,${ORDER},${TRADE},`,
        `2026-02-15T12:30:00.500000,${uid(4)},deposit,100.00,849.25,,,"wire ""2"", with a comma"`,
        '',
      ].join('\r\n'),
    )
    // q-values choose: CSV preferred over JSON.
    const preferred = await statement(PERIOD, bank.token, { accept: 'application/json;q=0.5, text/csv' })
    expect(preferred.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  })

  it('answers ISO 20022 camt.053.001.08 with Accept: application/xml, whose entries add up to its balances', async () => {
    const res = await statement(PERIOD, bank.token, { accept: 'application/xml' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">')).toBe(true)
    const doc = convert(res.text, { format: 'object' }) as any
    const stmt = doc.Document.BkToCstmrStmt.Stmt
    expect(stmt.Acct).toEqual({ Id: { Othr: { Id: bank.tenantId } }, Ccy: currency })
    expect(stmt.FrToDt).toEqual({ FrDtTm: '2026-02-01T00:00:00.000000Z', ToDtTm: '2026-03-05T00:00:00.000000Z' })
    const balances = Object.fromEntries(stmt.Bal.map((b: any) => [b.Tp.CdOrPrtry.Cd, b]))
    expect(balances.OPBD).toEqual({
      Tp: { CdOrPrtry: { Cd: 'OPBD' } },
      Amt: { '@Ccy': currency, '#': '1000.00' },
      CdtDbtInd: 'CRDT',
      Dt: { DtTm: '2026-02-01T00:00:00.000000Z' },
    })
    expect(balances.CLBD.Amt).toEqual({ '@Ccy': currency, '#': '849.25' })
    expect(stmt.TxsSummry).toEqual({
      TtlNtries: { NbOfNtries: '3' },
      TtlCdtNtries: { NbOfNtries: '1', Sum: '100.00' },
      TtlDbtNtries: { NbOfNtries: '2', Sum: '250.75' },
    })
    const entries: any[] = stmt.Ntry
    expect(entries.map((n) => n.AcctSvcrRef)).toEqual([uid(2), uid(3), uid(4)])
    expect(entries[0]).toEqual({
      NtryRef: ORDER,
      Amt: { '@Ccy': currency, '#': '250.50' },
      CdtDbtInd: 'DBIT',
      Sts: { Cd: 'BOOK' },
      BookgDt: { DtTm: '2026-02-01T09:00:00.000000Z' },
      AcctSvcrRef: uid(2),
      BkTxCd: { Prtry: { Cd: 'TRADE' } },
    })
    expect(entries[2].AddtlNtryInf).toBe('wire "2", with a comma')
    // Summed back: opening + credits − debits = closing.
    let sum: DecimalValue = decimalFromStore(balances.OPBD.Amt['#'])
    for (const n of entries) {
      const amount = decimalFromStore(n.Amt['#'])
      sum = n.CdtDbtInd === 'CRDT' ? add(sum, amount) : subtract(sum, amount)
    }
    expect(compareDecimals(sum, decimalFromStore(balances.CLBD.Amt['#']))).toBe(0)
  })

  it('escapes references in every form as JSON.stringify, RFC 4180 and XML do', async () => {
    const client = await createTestClient(server, { funded: false })
    const references = ['back\\slash', 'tab\there', 'line\r\nbreak', 'ctrl\u0001', 'ü € 😀', '<a href="x">&amp;</a>', "it's", 'comma, "quoted"']
    await sql`insert into accounts (tenant_id, currency, balance) values (${client.tenantId}, ${currency}, ${references.length})`.execute(server.services.db)
    for (const [i, reference] of references.entries()) {
      await sql`
        insert into ledger_entries (uid, created_at, tenant_id, currency, amount, balance_after, kind, reference)
        values (${uid(100 + i)}, ${`2026-04-01 00:00:0${i}`}::timestamp(6), ${client.tenantId}, ${currency}, 1, ${i + 1}, 'deposit', ${reference})`.execute(
        server.services.db,
      )
    }
    const query = 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z'
    const json = await statement(query, client.token)
    // Byte for byte what JSON.stringify writes of the same value (key order, escapes).
    expect(json.text).toBe(JSON.stringify(json.body))
    expect(json.body.entries.map((e: { reference: string }) => e.reference)).toEqual(references)
    const csv = await statement(query, client.token, { accept: 'text/csv' })
    const quoted = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
    expect(csv.text.split('\r\n').slice(1, 3)).toEqual([
      `2026-04-01T00:00:00.000000,${uid(100)},deposit,1.00,1.00,,,${references[0]}`,
      `2026-04-01T00:00:01.000000,${uid(101)},deposit,1.00,2.00,,,${quoted(references[1]!)}`,
    ])
    expect(csv.text.endsWith(`,,,${quoted(references.at(-1)!)}\r\n`)).toBe(true)
    const xml = await statement(query, client.token, { accept: 'application/xml' })
    expect((convert(xml.text, { format: 'object' }) as any).Document.BkToCstmrStmt.Stmt.Ntry).toHaveLength(references.length)
    // Markup escaped; XML 1.0 cannot carry U+0001: it shows U+FFFD.
    const escaped = (value: string) =>
      value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace('\u0001', '\uFFFD')
    expect([...xml.text.matchAll(/<AddtlNtryInf>(.*?)<\/AddtlNtryInf>/gs)].map((m) => m[1])).toEqual(references.map(escaped))
  })

  it('refuses a missing, unzoned, reversed or longer-than-366-days period with 422 and the documented detail', async () => {
    const detail = async (query: string) => {
      const res = await statement(query)
      expect(res.status, res.text).toBe(422)
      return res.body.detail.map((d: any) => [d.loc.join('.'), d.type])
    }
    expect(await detail('')).toEqual([
      ['query.from', 'missing'],
      ['query.to', 'missing'],
    ])
    expect(await detail('from=2026-02-01T00:00:00&to=2026-03-01T00:00:00Z')).toEqual([['query.from', 'value_error.datetime']])
    expect(await detail('from=2026-02-01T00:00:00Z&to=2026-02-01T00:00:00Z')).toEqual([['query.to', 'value_error.date_range']])
    expect(await detail('from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z')).toEqual([['query.to', 'value_error.date_range']])
    expect(await detail('from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:00.000001Z')).toEqual([['query.to', 'value_error.date_range']])
    expect(await detail(`${PERIOD}&limit=5`)).toEqual([['query.limit', 'value_error.extra']])
    const res = await statement('from=2026-03-01T00:00:00Z&to=2025-02-01T00:00:00Z')
    expect(res.body).toEqual({
      detail: [
        {
          loc: ['query', 'to'],
          msg: 'to must be after from',
          type: 'value_error.date_range',
          input: '2025-02-01T00:00:00Z',
          ctx: { from: '2026-03-01T00:00:00.000000' },
        },
      ],
    })
    // 366 days exactly is a statement.
    expect((await statement('from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:00Z')).status).toBe(200)
    // An unknown currency is 404, as GET /accounts/<CODE> answers it.
    expect((await statement(PERIOD, bank.token, {}, 'NOPE')).status).toBe(404)
  })

  it("keeps each tenant to its own: another tenant's statement is empty, its tenant_id 403; admins pass tenant_id", async () => {
    const own = await statement(PERIOD, other.token)
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({ tenant_id: other.tenantId, opening_balance: '0.00', closing_balance: '0.00', entry_count: 0, entries: [] })
    expect((await statement(`${PERIOD}&tenant_id=${bank.tenantId}`, other.token)).status).toBe(403)
    const asAdmin = await statement(`${PERIOD}&tenant_id=${bank.tenantId}`, admin.token)
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body).toEqual(expectedStatement())
    const noScope = await createTestClient(server, { scopes: ['orders:read'], funded: false })
    expect((await statement(PERIOD, noScope.token)).status).toBe(403)
  })
})

describe('accountStatement (GraphQL)', () => {
  const QUERY = `query($currency: String!, $from: DateTime, $to: DateTime, $tenantId: ID, $first: Int, $after: ID) {
    accountStatement(currency: $currency, from: $from, to: $to, tenantId: $tenantId) {
      tenantId currency from to openingBalance closingBalance totalCredits totalDebits entryCount
      entries(first: $first, after: $after) { uid createdAt tenantId currency amount balanceAfter kind orderUid tradeUid reference } } }`
  const camel = (e: any) => ({
    uid: e.uid,
    createdAt: e.created_at,
    tenantId: e.tenant_id,
    currency: e.currency,
    amount: e.amount,
    balanceAfter: e.balance_after,
    kind: e.kind,
    orderUid: e.order_uid,
    tradeUid: e.trade_uid,
    reference: e.reference,
  })

  it('answers what REST answers, its entries in pages of `first` after `after`', async () => {
    const rest = (await statement(PERIOD)).body
    const vars = { currency, from: '2026-02-01T00:00:00Z', to: '2026-03-05T00:00:00Z' }
    const res = await server.graphql<any, any>(QUERY, vars, { token: bank.token })
    expect(res.errors).toBeUndefined()
    expect(res.data.accountStatement).toEqual({
      tenantId: rest.tenant_id,
      currency: rest.currency,
      from: rest.from,
      to: rest.to,
      openingBalance: rest.opening_balance,
      closingBalance: rest.closing_balance,
      totalCredits: rest.total_credits,
      totalDebits: rest.total_debits,
      entryCount: rest.entry_count,
      entries: rest.entries.map(camel),
    })
    const page1 = await server.graphql<any, any>(QUERY, { ...vars, first: 2 }, { token: bank.token })
    expect(page1.data.accountStatement.entries.map((e: any) => e.uid)).toEqual([uid(2), uid(3)])
    const page2 = await server.graphql<any, any>(QUERY, { ...vars, first: 2, after: uid(3) }, { token: bank.token })
    expect(page2.data.accountStatement.entries.map((e: any) => e.uid)).toEqual([uid(4)])
    const admin1 = await server.graphql<any, any>(QUERY, { ...vars, tenantId: bank.tenantId }, { token: admin.token })
    expect(admin1.data.accountStatement).toEqual(res.data.accountStatement)
  })

  it('refuses what REST refuses with the same detail; first is bounded; an unknown currency is null', async () => {
    const rest = (await statement('from=2026-03-01T00:00:00Z&to=2026-02-01T00:00:00Z')).body
    const res = await server.graphql<any, any>(QUERY, { currency, from: '2026-03-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }, { token: bank.token })
    expect(res.data?.accountStatement ?? null).toBeNull()
    expect(res.errors?.[0]?.extensions.detail).toEqual(rest.detail)
    const missing = await server.graphql<any, any>(QUERY, { currency }, { token: bank.token })
    expect(missing.errors?.[0]?.extensions.detail.map((d: any) => d.type)).toEqual(['missing', 'missing'])
    const tooMany = await server.graphql<any, any>(
      QUERY,
      { currency, from: '2026-02-01T00:00:00Z', to: '2026-03-05T00:00:00Z', first: 1001 },
      { token: bank.token },
    )
    expect(tooMany.errors?.[0]?.extensions.detail.map((d: any) => [d.loc.join('.'), d.type])).toEqual([['query.first', 'value_error.number.not_le']])
    const unknown = await server.graphql<any, any>(QUERY, { currency: 'NOPE', from: '2026-02-01T00:00:00Z', to: '2026-03-05T00:00:00Z' }, { token: bank.token })
    expect(unknown.errors).toBeUndefined()
    expect(unknown.data.accountStatement).toBeNull()
    const foreign = await server.graphql<any, any>(
      QUERY,
      { currency, from: '2026-02-01T00:00:00Z', to: '2026-03-05T00:00:00Z', tenantId: bank.tenantId },
      { token: other.token },
    )
    expect(foreign.errors?.[0]?.extensions.code).toBe('FORBIDDEN')
  })
})

describe('account statement (CLI)', () => {
  const cli = async (...args: string[]) => {
    let stdout = ''
    try {
      await runCommand(server.config, server.services.db, args, (text) => void (stdout += text))
      return { code: 0, stdout, stderr: '' }
    } catch (error) {
      return { ...failure(error), stdout }
    }
  }
  const flags = () => ['--tenant', bank.tenantId, '--currency', currency, '--from', '2026-02-01T00:00:00Z', '--to', '2026-03-05T00:00:00Z']

  it('writes each form as REST answers it', async () => {
    const json = await cli('account', 'statement', ...flags())
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual(expectedStatement())
    const csv = await cli('account', 'statement', ...flags(), '--format', 'csv')
    expect(csv.stdout).toBe((await statement(PERIOD, bank.token, { accept: 'text/csv' })).text)
    const xml = await cli('account', 'statement', ...flags(), '--format', 'camt053')
    const doc = convert(xml.stdout.trim(), { format: 'object' }) as any
    expect(doc.Document.BkToCstmrStmt.Stmt.Ntry.map((n: any) => n.AcctSvcrRef)).toEqual([uid(2), uid(3), uid(4)])
  })

  it('names the flag it refuses', async () => {
    const missing = await cli('account', 'statement', '--tenant', bank.tenantId, '--currency', currency, '--from', '2026-02-01T00:00:00Z')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('--to: ')
    const format = await cli('account', 'statement', ...flags(), '--format', 'pdf')
    expect(format.code).toBe(1)
    expect(format.stderr).toContain('--format: ')
  })
})

describe('storedDecimalAtLeast', () => {
  it('renders stored amounts as formatDecimalAtLeast does, at every precision', () => {
    const texts = ['0', '-0', '0.00', '-0.000', '1', '-1', '10', '100.0', '-250.50', '0.25', '-0.25', '1.125', '12345678901234567890.000000001', '7.10']
    // And a spread of generated ones: signs, zero or more integer digits, fractions with trailing zeros.
    let seed = 7
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n
    for (let i = 0; i < 2000; i++) {
      const whole = next(3) === 0 ? '0' : String(1 + next(1_000_000))
      const fraction = next(2) === 0 ? '' : `.${String(next(100_000)).padStart(1 + next(6), '0')}${'0'.repeat(next(3))}`
      texts.push(`${next(2) === 0 ? '-' : ''}${whole}${fraction}`)
    }
    // Forms PostgreSQL does not write take the exact path, with the same answer.
    texts.push('+5', '007.50', '-00.5', '.5', '5.')
    for (const places of [-2, 0, 1, 2, 8]) {
      const at = storedDecimalAtLeast(places)
      for (const text of texts) expect(at(text), `${text} at ${places}`).toBe(formatDecimalAtLeast(decimalFromStore(text), Math.max(places, 0)))
    }
  })
})

describe('a long statement streams', () => {
  // The server runs in this process: its heap is this heap. A full collection before each sample
  // leaves what is held, not what was garbage.
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void

  /** Reads the statement over a raw socket (fetch's contract check would hold the whole body), sampling the heap as bytes come. */
  function peakHeapWhileReading(code: string, tenantId: string, accept: string, every: number): Promise<{ bytes: number; growth: number }> {
    gc()
    const base = process.memoryUsage().heapUsed
    let peak = base
    let bytes = 0
    let sampledAt = 0
    const url = new URL(`${API}/${code}/statement?from=2025-12-01T00:00:00Z&to=2026-12-01T00:00:00Z&tenant_id=${tenantId}`, server.url)
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { headers: { authorization: `Bearer ${admin.token}`, accept } }, (res) => {
        expect(res.statusCode).toBe(200)
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          if (bytes - sampledAt >= every) {
            sampledAt = bytes
            gc()
            peak = Math.max(peak, process.memoryUsage().heapUsed)
          }
        })
        res.on('end', () => resolve({ bytes, growth: peak - base }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })
  }

  async function tenantWithEntries(n: number, every = '15 minutes'): Promise<{ tenantId: string; code: string }> {
    const client = await createTestClient(server, { funded: false })
    const code = (await createMarket(server.services.db, {}, { funded: false })).split('-')[1]!
    await sql`insert into accounts (tenant_id, currency, balance) values (${client.tenantId}, ${code}, ${n})`.execute(server.services.db)
    await sql`
      insert into ledger_entries (uid, created_at, tenant_id, currency, amount, balance_after, kind, reference)
      select gen_random_uuid(), timestamp '2026-01-01' + i * ${every}::interval, ${client.tenantId}, ${code}, 1, i, 'deposit', 'bulk-' || i
      from generate_series(1, ${n}::int) as i`.execute(server.services.db)
    return { tenantId: client.tenantId, code }
  }

  it('holds a reader that stops reading to what its socket takes: the service stops reading pages, and buffers little', async () => {
    // Several times what the kernel's socket buffers take (some MiB) in each form.
    const { tenantId, code } = await tenantWithEntries(50_000, '5 minutes')
    for (const accept of ['application/json', 'application/xml']) {
      // The service's side of this request: what it has written, and the most its response held unsent.
      let written = 0
      let held = 0
      const watch = (req: IncomingMessage, res: ServerResponse) => {
        if (!req.url?.startsWith(`${API}/${code}/statement`)) return
        const write = res.write.bind(res) as (chunk: string) => boolean
        res.write = ((chunk: string) => {
          const ok = write(chunk)
          written += Buffer.byteLength(chunk)
          held = Math.max(held, res.writableLength)
          return ok
        }) as typeof res.write
      }
      server.running.server.prependListener('request', watch)
      const url = new URL(`${API}/${code}/statement?from=2025-12-01T00:00:00Z&to=2026-12-01T00:00:00Z&tenant_id=${tenantId}`, server.url)
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(url, { headers: { authorization: `Bearer ${admin.token}`, accept } }, (res) => {
          // Reads nothing until told: what the socket takes is all the service can hand over.
          res.pause()
          resolve(res)
        })
        req.on('error', reject)
        req.end()
      })
      expect(response.statusCode).toBe(200)
      // Until the service stops writing (no clock to inject: it waits for the socket, not for time).
      let last = -1
      for (let still = 0; still < 10;) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        still = written === last ? still + 1 : 0
        last = written
      }
      server.running.server.off('request', watch)
      const stalled = written
      const bytes = await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve(Buffer.concat(chunks)))
        response.on('error', reject)
        response.resume()
      })
      // It stopped before the end: the kernel's buffers (their share varies: 4 to 9 MiB of 15 seen)
      // took what they could and the service waited. A statement written whole would instead
      // have held the unsent rest in the response: the bound below is what judges that.
      expect(stalled, `${accept}: ${stalled} of ${bytes.length} bytes written while the reader read nothing`).toBeLessThan(bytes.length)
      expect(held, `${accept}: ${held} bytes held unsent`).toBeLessThan(256 * 1024)
      if (accept === 'application/json') expect(JSON.parse(bytes.toString('utf8')).entries).toHaveLength(50_000)
      else expect(bytes.toString('utf8').split('<Ntry>')).toHaveLength(50_001)
    }
  }, 120_000)

  it('holds as much for 20,000 entries as for 2,000, in every form', async () => {
    const small = await tenantWithEntries(2_000)
    const large = await tenantWithEntries(20_000)
    for (const accept of ['application/json', 'text/csv', 'application/xml']) {
      // About as many samples of each: one per 1/10th of its body.
      const a = await peakHeapWhileReading(small.code, small.tenantId, accept, 150_000)
      const b = await peakHeapWhileReading(large.code, large.tenantId, accept, 1_500_000)
      // Ten times the bytes. A body built whole holds its own text (b.bytes) and its rows besides
      // at its peak; a streamed one holds a page, as it does for 2,000 entries.
      expect(b.bytes).toBeGreaterThan(9 * a.bytes)
      expect(b.growth, `${accept}: ${a.growth} → ${b.growth} bytes of heap for ${a.bytes} → ${b.bytes} bytes of body`).toBeLessThan(a.growth + b.bytes * 0.75)
    }
    const { body } = await statement(`from=2025-12-01T00:00:00Z&to=2026-12-01T00:00:00Z&tenant_id=${large.tenantId}`, admin.token, {}, large.code)
    expect(body.entry_count).toBe(20_000)
    expect(body.entries).toHaveLength(20_000)
    expect(body.closing_balance).toBe('20000.00')
    expect(body.entries.at(-1).balance_after).toBe('20000.00')
  }, 240_000)
})
