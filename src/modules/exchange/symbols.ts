import { z } from 'zod'
import type { RequestContext } from '../../context.ts'
import type { Db } from '../../db.ts'
import { echoed, notFound } from '../../errors.ts'
import { COMMON_FIELDS, listQuerySchema } from '../../lists.ts'
import { parseInput, queryBool } from '../../validation.ts'
import { decimalFromStore, formatDecimal, priceBand } from './decimal.ts'
import type { Page } from '../../page-rows.ts'
import { findCurrenciesByCodes, type CurrencyRow } from './currencies.repository.ts'
import type { CachedSymbolPage } from './symbols-cache.ts'
import { findSymbolByName, listSymbolRows, type SymbolRow } from './symbols.repository.ts'

export const SYMBOLS_READ = 'symbols:read'

/** The symbol fields of seed 2.3, in its order, after the common ones. */
export const SYMBOL_FIELDS = [
  ...COMMON_FIELDS,
  'symbol',
  'price_precision',
  'quantity_precision',
  'min_order_quantity',
  'tick_size',
  'daily_fluctuation_price_limit_percent',
  'description',
  'is_active',
] as const

/** Seed 2.5 lists `id` and `revision_id` among the heads although items never carry them. */
export const SYMBOL_HEAD_FIELDS = ['id', 'revision_id', ...SYMBOL_FIELDS] as const

const SYMBOL_ORDERABLE = SYMBOL_FIELDS.filter((f) => f !== 'meta_data' && f !== 'is_deleted')

export const MAX_SYMBOL_LENGTH = 32

/** Currency codes are upper case; `usd-irr` names the same market as `USD-IRR`. */
export const symbolName = z.string().min(1).max(MAX_SYMBOL_LENGTH, { abort: true }).toUpperCase()

export const symbolListQuery = listQuerySchema({ symbol: symbolName.optional(), is_active: queryBool.optional() }, SYMBOL_ORDERABLE)
export type SymbolListQuery = z.infer<typeof symbolListQuery>

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
  const rows = await listSymbolRows(ctx.db, query)
  const page: Page<SymbolRow> = { ...rows, offset: query.offset, limit: query.limit }
  const entry = { page, currencies: await currenciesOf(ctx.db, page.rows) }
  cache.set(key, entry, generation)
  return entry
}

/** The currencies of a page of symbols, in one query. */
export async function currenciesOf(db: Db, rows: readonly SymbolRow[]): Promise<Map<string, CurrencyRow>> {
  const codes = new Set(rows.flatMap((row) => [row.base, row.quote]))
  const currencies = await findCurrenciesByCodes(db, [...codes])
  return new Map(currencies.map((c) => [c.code, c]))
}

export async function getSymbol(ctx: RequestContext, name: string): Promise<SymbolRow> {
  await ctx.auth.require(SYMBOLS_READ)
  const row = name.length <= MAX_SYMBOL_LENGTH ? await findSymbolByName(ctx.db, name.toUpperCase()) : undefined
  if (!row) throw notFound(`Symbol ${echoed(name)} not found`)
  return row
}

/** The band a limit price must fall in today, or null while the symbol has no reference price. */
export function symbolPriceBand(row: Pick<SymbolRow, 'reference_price' | 'daily_fluctuation_price_limit_percent'>) {
  if (row.reference_price === null) return null
  const band = priceBand(decimalFromStore(row.reference_price), decimalFromStore(row.daily_fluctuation_price_limit_percent))
  return { min: formatDecimal(band.min), max: formatDecimal(band.max) }
}
