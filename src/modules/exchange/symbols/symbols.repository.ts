import { type Insertable, type Selectable, sql } from 'kysely'

import { orderAndPage, whereCommon } from '../../../core/lists.ts'
import { countAll, type PageRows, totalOverAll, withTotal } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { SymbolTable } from '../../../db/schema.ts'
import type { SymbolListQuery } from './symbols.schemas.ts'

export type SymbolRow = Selectable<SymbolTable>

/** Inserts a symbol or refreshes its trading rules; keeps uid, created_at and reference price. */
export async function upsertSymbol(db: Db, symbol: Insertable<SymbolTable>): Promise<void> {
  await db
    .insertInto('symbols')
    .values(symbol)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet((eb) => ({
        price_precision: eb.ref('excluded.price_precision'),
        quantity_precision: eb.ref('excluded.quantity_precision'),
        min_order_quantity: eb.ref('excluded.min_order_quantity'),
        tick_size: eb.ref('excluded.tick_size'),
        daily_fluctuation_price_limit_percent: eb.ref('excluded.daily_fluctuation_price_limit_percent'),
        description: eb.ref('excluded.description'),
        updated_at: sql<string>`timezone('utc', now())`,
      })),
    )
    .execute()
}

export async function updateSymbolByName(
  db: Db,
  symbol: string,
  changes: Partial<Pick<SymbolRow, 'is_active' | 'reference_price' | 'maker_fee_percent' | 'taker_fee_percent'>> & {
    reference_price_at?: ReturnType<typeof sql<string>>
  },
): Promise<SymbolRow | undefined> {
  return db
    .updateTable('symbols')
    .set({ ...changes, updated_at: sql<string>`timezone('utc', now())` })
    .where('symbol', '=', symbol)
    .where('is_deleted', '=', false)
    .returningAll()
    .executeTakeFirst()
}

export async function findSymbolByName(db: Db, symbol: string): Promise<SymbolRow | undefined> {
  return db.selectFrom('symbols').selectAll().where('symbol', '=', symbol).where('is_deleted', '=', false).executeTakeFirst()
}

/** Every symbol an order can name (active or not): the market rules the order path validates against. */
export async function findLiveSymbols(db: Db): Promise<SymbolRow[]> {
  return db.selectFrom('symbols').selectAll().where('is_deleted', '=', false).execute()
}

/** For loaders resolving an order's market: a soft-deleted symbol is still the market an order was placed on. */
export async function findSymbolsByNames(db: Db, symbols: readonly string[]): Promise<SymbolRow[]> {
  if (symbols.length === 0) return []
  return db
    .selectFrom('symbols')
    .selectAll()
    .where('symbol', 'in', [...symbols])
    .execute()
}

function filteredSymbols(db: Db, query: SymbolListQuery) {
  let q = whereCommon(db.selectFrom('symbols'), 'symbols', query)
  if (query.symbol !== undefined) q = q.where('symbols.symbol', '=', query.symbol)
  if (query.is_active !== undefined) q = q.where('symbols.is_active', '=', query.is_active)
  return q
}

/** One page and the number of all matching symbols, in one statement (the symbol list is the hottest call). */
export async function listSymbolRows(db: Db, query: SymbolListQuery): Promise<PageRows<SymbolRow>> {
  const rows = await orderAndPage(filteredSymbols(db, query).selectAll('symbols').select(totalOverAll), 'symbols', query).execute()
  return withTotal(rows, query, async () => {
    const { count } = await filteredSymbols(db, query).select(countAll).executeTakeFirstOrThrow()
    return count
  })
}

/**
 * A digest of every symbol and currency row, whole: any insert, update or delete, through any
 * path (CLI, seed, another process, plain SQL), changes it. Both tables are small; read once a second.
 */
export async function catalogFingerprint(db: Db): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`
    select md5(
      coalesce((select string_agg(s::text, '|' order by s.uid) from symbols s), '') || '#' ||
      coalesce((select string_agg(c::text, '|' order by c.code) from currencies c), '')
    ) as fingerprint`.execute(db)
  return rows[0]!.fingerprint
}
