import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DEFAULT_RELOAD_INTERVALS } from '../src/app/services.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setReferencePrice, setSymbolActive } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { runCli } from './helpers/process.ts'
import { SHORT_RELOAD_MS, startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let bank: TestClient
beforeAll(async () => {
  server = await startTestServer({}, undefined, { intervals: { catalog: SHORT_RELOAD_MS } })
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

const SYMBOLS = '/api/exchange/v1/symbols'
const list = (query = '') => server.request('GET', `${SYMBOLS}${query}`, { token: bank.token })
const item = (body: any, symbol: string) => body.items.find((i: any) => i.symbol === symbol)
const queries = () => server.services.database.queryCount()

// Only how long a test waits before failing when the catalog checks are broken.
const GIVE_UP_MS = 5000

/** Polls until `check` holds (after the next catalog check). */
async function seen(check: () => Promise<boolean>): Promise<void> {
  await eventually(async () => ((await check()) ? true : undefined), GIVE_UP_MS, SHORT_RELOAD_MS / 2)
}

describe('symbol list cache', () => {
  it('answers a repeated list from memory, and each distinct query on its own', () =>
    withoutBackgroundPolls(server.services, async () => {
      const first = await list('?limit=5')
      const before = queries()
      const again = await list('?limit=5')
      expect(queries() - before).toBe(0)
      expect(again.status).toBe(200)
      expect(again.text).toBe(first.text)
      const other = await list('?limit=2')
      expect(other.body.items).toHaveLength(2)
      expect(other.body.limit).toBe(2)
      // The same query spelled differently (defaults, case) is the same entry.
      await list('?is_active=true&symbol=usd-irr')
      const spelled = queries()
      const same = await list('?symbol=USD-IRR&is_active=true&offset=0')
      expect(queries() - spelled).toBe(0)
      expect(same.body.items.map((i: any) => i.symbol)).toEqual(['USD-IRR'])
    }))

  it('pages one filter and order from one read: other offsets and limits cost no statement', () =>
    withoutBackgroundPolls(server.services, async () => {
      const whole = await list('?order_by=-symbol&is_active=true&limit=100')
      const symbols = whole.body.items.map((i: any) => i.symbol)
      expect(symbols.length).toBeGreaterThan(3)
      const before = queries()
      for (const [offset, limit] of [
        [0, 1],
        [1, 2],
        [2, 50],
        [symbols.length - 1, 3],
        [symbols.length + 5, 10],
      ]) {
        const page = await list(`?order_by=-symbol&is_active=true&offset=${offset}&limit=${limit}`)
        expect(page.status).toBe(200)
        expect(page.body.items.map((i: any) => i.symbol)).toEqual(symbols.slice(offset, offset + limit))
        expect(page.body.items).toEqual(whole.body.items.slice(offset, offset + limit))
        expect([page.body.total, page.body.offset, page.body.limit]).toEqual([whole.body.total, offset, limit])
      }
      expect(queries() - before).toBe(0)
    }))

  it('keeps the whole list while more distinct pages than the cache holds are asked', () =>
    withoutBackgroundPolls(server.services, async () => {
      await list('?order_by=symbol&limit=1')
      const before = queries()
      // 300 pages, more than the 256 page entries kept: the list they are cut from stays.
      for (let n = 0; n < 300; n++) expect((await list(`?order_by=symbol&offset=${n % 3}&limit=${1 + Math.floor(n / 3)}`)).status).toBe(200)
      expect(queries() - before).toBe(0)
    }))

  it('still authenticates, checks scopes and counts every cached request', async () => {
    await list()
    expect((await server.request('GET', SYMBOLS)).status).toBe(401)
    const noScope = await createTestClient(server, { scopes: ['orders:read'] })
    const denied = await server.request('GET', SYMBOLS, { token: noScope.token })
    expect(denied.status).toBe(403)
    const a = await list()
    const b = await list()
    expect(Number(b.headers.get('ratelimit-remaining'))).toBe(Number(a.headers.get('ratelimit-remaining')) - 1)
  })

  it('checks the catalog often enough by default to drop lists within the ~1 s of docs/api.md', () => {
    expect(DEFAULT_RELOAD_INTERVALS.catalog).toBeLessThanOrEqual(1000)
  })

  it('sees a symbol deactivated by the CLI operation at the next check, on REST and GraphQL', async () => {
    expect(item((await list()).body, 'BTC-USDT').is_active).toBe(true)
    await setSymbolActive(server.services.db, 'BTC-USDT', false)
    await seen(async () => item((await list()).body, 'BTC-USDT').is_active === false)
    const gql = await server.graphql('{ symbols(filter: { symbol: "BTC-USDT" }) { items { isActive } } }', {}, { token: bank.token })
    expect(gql.data).toEqual({ symbols: { items: [{ isActive: false }] } })
    await setSymbolActive(server.services.db, 'BTC-USDT', true)
    await seen(async () => item((await list()).body, 'BTC-USDT').is_active === true)
  })

  it('sees a currency changed by `db seed` (and by plain SQL) at the next check', async () => {
    await sql`update currencies set name_en = 'Old name' where code = 'USDT'`.execute(server.services.db)
    await seen(async () => item((await list()).body, 'BTC-USDT').properties.USDT.name.en === 'Old name')
    await seedDemoMarket(server.services.db)
    await seen(async () => item((await list()).body, 'BTC-USDT').properties.USDT.name.en !== 'Old name')
  })

  it('a reference price set meanwhile leaves the list unchanged but is seen by GraphQL', async () => {
    await setReferencePrice(server.services.db, 'USD-IRR', '1000000')
    await seen(async () => {
      const gql = await server.graphql('{ symbols(filter: { symbol: "USD-IRR" }) { items { referencePrice } } }', {}, { token: bank.token })
      return (gql.data as any)?.symbols.items[0].referencePrice === '1000000'
    })
  })

  it.runIf(onPostgres)('sees a change made by the CLI process at the next check', async () => {
    expect(item((await list()).body, 'ETH-USDT').is_active).toBe(true)
    const result = await runCli(['symbol', 'deactivate', 'ETH-USDT'], server.database.env)
    expect(result.code).toBe(0)
    await seen(async () => item((await list()).body, 'ETH-USDT').is_active === false)
    expect((await runCli(['symbol', 'activate', 'ETH-USDT'], server.database.env)).code).toBe(0)
    await seen(async () => item((await list()).body, 'ETH-USDT').is_active === true)
  })
})
