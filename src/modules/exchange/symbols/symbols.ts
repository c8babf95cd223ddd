import type { RequestContext } from '../../../core/context.ts'
import { decimalFromStore, formatDecimal, priceBand } from '../../../core/decimal.ts'
import { echoed, notFound } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import type { CachedSymbolPage, SymbolsCache } from './caches/symbols-cache.ts'
import { type CurrencyRow, findCurrenciesByCodes } from './currencies.repository.ts'
import { findSymbolByName, listSymbolRows, type SymbolRow } from './symbols.repository.ts'
import { MAX_SYMBOL_LENGTH, type SymbolListQuery, symbolListQuery } from './symbols.schemas.ts'

export const SYMBOLS_READ = 'symbols:read'

// A filter matching at most this many symbols has all of them read once per catalog generation
// and paged in memory: pages that differ only in offset and limit (a dashboard paging with
// variables) then cost no statement. Larger catalogs read each page on its own.
const WHOLE_LIST_LIMIT = 1000

/**
 * The symbol list is the hottest call: answers are cached per normalised query until the catalog
 * changes (SymbolsCache). The caller is still authorised and counted on every request.
 */
export async function listSymbols(ctx: RequestContext, input: unknown): Promise<CachedSymbolPage> {
  await ctx.auth.require(SYMBOLS_READ)
  const query = parseInput(symbolListQuery, input, 'query')
  const cache = ctx.services.symbolsCache
  const key = JSON.stringify(query)
  const cached = cache.get(key)
  if (cached) return cached
  const generation = cache.generation
  const whole = await wholeList(ctx.services.db, cache, query, generation)
  let entry: CachedSymbolPage
  if (whole) {
    // The same rows in the same order as the page's own statement (ties broken by uid): a slice of them.
    const rows = whole.page.rows.slice(query.offset, query.offset + query.limit)
    entry = { page: { rows, total: whole.page.total, offset: query.offset, limit: query.limit }, currencies: whole.currencies }
  } else {
    const rows = await listSymbolRows(ctx.services.db, query)
    const page: Page<SymbolRow> = { ...rows, offset: query.offset, limit: query.limit }
    entry = { page, currencies: await currenciesOf(ctx.services.db, page.rows) }
  }
  cache.set(key, entry, generation)
  return entry
}

/** Every symbol the query's filter matches, in its order, when there are at most WHOLE_LIST_LIMIT. */
async function wholeList(db: Db, cache: SymbolsCache, query: SymbolListQuery, generation: number): Promise<CachedSymbolPage | undefined> {
  const all = { ...query, offset: 0, limit: WHOLE_LIST_LIMIT + 1 }
  const key = JSON.stringify(all)
  let entry = cache.wholeList(key)
  if (!entry) {
    const rows = await listSymbolRows(db, all)
    entry = { page: { ...rows, offset: 0, limit: all.limit }, currencies: await currenciesOf(db, rows.rows) }
    cache.setWholeList(key, entry, generation)
  }
  return entry.page.rows.length <= WHOLE_LIST_LIMIT ? entry : undefined
}

/** The currencies of a page of symbols, in one query. */
export async function currenciesOf(db: Db, rows: readonly SymbolRow[]): Promise<Map<string, CurrencyRow>> {
  const codes = new Set(rows.flatMap((row) => [row.base, row.quote]))
  const currencies = await findCurrenciesByCodes(db, [...codes])
  return new Map(currencies.map((c) => [c.code, c]))
}

export async function getSymbol(ctx: RequestContext, name: string): Promise<SymbolRow> {
  await ctx.auth.require(SYMBOLS_READ)
  const row = name.length <= MAX_SYMBOL_LENGTH ? await findSymbolByName(ctx.services.db, name.toUpperCase()) : undefined
  if (!row) throw notFound(`Symbol ${echoed(name)} not found`)
  return row
}

/** The band a limit price must fall in today, or null while the symbol has no reference price. */
export function symbolPriceBand(row: Pick<SymbolRow, 'reference_price' | 'daily_fluctuation_price_limit_percent'>) {
  if (row.reference_price === null) return null
  const band = priceBand(decimalFromStore(row.reference_price), decimalFromStore(row.daily_fluctuation_price_limit_percent))
  return { min: formatDecimal(band.min), max: formatDecimal(band.max) }
}
