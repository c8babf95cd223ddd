import { randomUUID } from 'node:crypto'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { formatTimestamp } from '../src/core/timestamps.ts'
import { separatedTexts } from '../src/db/database.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
})
afterAll(async () => {
  await server?.close()
})

describe('database round trip', () => {
  it('keeps microsecond timestamps and 30-digit decimals exactly', async () => {
    const db = server.services.db
    const uid = randomUUID()
    const stamp = '2026-11-25 21:30:00.123456'
    const big = '123456789012345678901234567890'
    const tiny = '0.000000000000000000000000000001'
    await db
      .insertInto('symbols')
      .values({
        uid,
        created_at: stamp,
        updated_at: '2026-11-25 21:30:00.000100',
        user_id: 'test',
        meta_data: null,
        symbol: 'BTC-IRR',
        base: 'BTC',
        quote: 'IRR',
        price_precision: 0,
        quantity_precision: 30,
        min_order_quantity: tiny,
        tick_size: big,
        daily_fluctuation_price_limit_percent: '12.345678901234567890123456789',
      })
      .execute()
    const row = await db.selectFrom('symbols').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow()
    expect(row.created_at).toBe(stamp)
    expect(formatTimestamp(row.created_at)).toBe('2026-11-25T21:30:00.123456')
    expect(formatTimestamp(row.updated_at)).toBe('2026-11-25T21:30:00.000100')
    expect(row.tick_size).toBe(big)
    expect(row.min_order_quantity).toBe(tiny)
    expect(row.daily_fluctuation_price_limit_percent).toBe('12.345678901234567890123456789')
  })

  it('passes array parameters element for element, quotes, backslashes, braces and NULLs included', async () => {
    const words = ['plain', 'NULL', '', 'a"b', 'back\\slash', '\\"', '{x,y}', ' spaced ', 'ünïcode', null, 'tab\tnew\nline']
    const numbers = [1, -2.5, 30, null]
    const { rows } = await sql<{ word: string | null; n: number }>`
      select word, n::int from unnest(${words}::text[]) with ordinality as t(word, n) order by n`.execute(server.services.db)
    expect(rows.map((row) => row.word)).toEqual(words)
    const decimals = await sql<{ d: string | null }>`select d::text from unnest(${numbers}::numeric[]) as t(d)`.execute(server.services.db)
    expect(decimals.rows.map((row) => row.d)).toEqual(['1', '-2.5', '30', null])
    const flags = await sql<{ f: boolean }>`select f from unnest(${[true, false]}::bool[]) as t(f)`.execute(server.services.db)
    expect(flags.rows.map((row) => row.f)).toEqual([true, false])
  })

  it('passes JSON texts as one separated parameter, each text exactly, and refuses what the split would break', async () => {
    const texts = [
      JSON.stringify({ a: 'quote " and back\\slash', b: '\u001f unit separator, \t tab, \n newline', c: 'ünïcode ☃', d: '{x,y}', e: null }),
      ',"type":"fill","rest":"after a sequence"}',
      JSON.stringify('NULL'),
      JSON.stringify(['', ' ']),
    ]
    // JSON.stringify wrote the separator escaped (\u001f), as every control character.
    expect(texts[0]).toContain('\\u001f')
    expect(texts[0]).not.toContain('\x1f')
    const { rows } = await sql<{ text: string; n: number }>`
      select text, n::int from unnest(${separatedTexts(texts)}) with ordinality as t(text, n) order by n`.execute(server.services.db)
    expect(rows.map((row) => row.text)).toEqual(texts)
    const none = await sql<{ count: number }>`select count(*)::int as count from unnest(${separatedTexts([])}) as t(text)`.execute(server.services.db)
    expect(none.rows[0]!.count).toBe(0)
    expect(() => separatedTexts(['a\x1fb'])).toThrow(/U\+001F/)
    expect(() => separatedTexts(['a', ''])).toThrow(/empty/)
  })

  it('stamps new rows in UTC with microseconds', async () => {
    const row = await server.services.db.selectFrom('symbols').select('created_at').where('symbol', '=', 'USD-IRR').executeTakeFirstOrThrow()
    expect(formatTimestamp(row.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/)
    const ageMs = Date.now() - Date.parse(`${formatTimestamp(row.created_at)}Z`)
    expect(Math.abs(ageMs)).toBeLessThan(5 * 60_000)
  })

  it('renders timestamps with 6 fraction digits whatever the number the database writes', async () => {
    const stamps = ['2026-11-25 21:30:00', ...[1, 2, 3, 4, 5, 6].map((n) => `2026-11-25 21:30:00.${'123456'.slice(0, n)}`), '10000-01-02 03:04:05.5']
    const { rows } = await sql<{ t: string }>`select unnest(${stamps}::timestamp(6)[]) as t`.execute(server.services.db)
    expect(rows.map((r) => formatTimestamp(r.t))).toEqual([
      '2026-11-25T21:30:00.000000',
      '2026-11-25T21:30:00.100000',
      '2026-11-25T21:30:00.120000',
      '2026-11-25T21:30:00.123000',
      '2026-11-25T21:30:00.123400',
      '2026-11-25T21:30:00.123450',
      '2026-11-25T21:30:00.123456',
      '10000-01-02T03:04:05.500000',
    ])
  })

  it('enforces the constraints the design names', async () => {
    const db = server.services.db
    const base = {
      user_id: 'test',
      meta_data: null,
      price_precision: 0,
      quantity_precision: 0,
      min_order_quantity: '1',
      tick_size: '1',
      daily_fluctuation_price_limit_percent: '5',
    }
    // unique symbol
    await expect(
      db
        .insertInto('symbols')
        .values({ ...base, uid: randomUUID(), symbol: 'USD-IRR', base: 'USD', quote: 'IRR' })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' })
    // currency foreign key
    await expect(
      db
        .insertInto('symbols')
        .values({ ...base, uid: randomUUID(), symbol: 'XXX-IRR', base: 'XXX', quote: 'IRR' })
        .execute(),
    ).rejects.toMatchObject({ code: '23503' })
  })

  it('seeds idempotently', async () => {
    const before = await server.services.db.selectFrom('symbols').select(['uid', 'symbol', 'created_at']).orderBy('symbol').execute()
    await seedDemoMarket(server.services.db)
    const after = await server.services.db.selectFrom('symbols').select(['uid', 'symbol', 'created_at']).orderBy('symbol').execute()
    expect(after).toEqual(before)
    const currencies = await server.services.db.selectFrom('currencies').selectAll().execute()
    expect(currencies.map((c) => c.code).sort()).toEqual(['AED', 'BTC', 'CNY', 'ETH', 'EUR', 'IRR', 'IRT', 'USD', 'USDT'])
    expect(currencies.find((c) => c.code === 'IRR')!.unit_value_irr).toBe(1)
    const symbols = await server.services.db.selectFrom('symbols').selectAll().execute()
    expect(symbols.some((s) => s.price_precision === 0)).toBe(true)
    expect(symbols.some((s) => s.quantity_precision < 0)).toBe(true)
    expect(symbols.some((s) => !s.is_active)).toBe(true)
  })
})
