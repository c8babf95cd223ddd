import type { Page } from '../../../core/lists.ts'
import { commonRecord, type ListEnvelope, makeHeads } from '../../../core/lists.ts'
import type { CachedSymbolPage } from './caches/symbols-cache.ts'
import type { CurrencyRow } from './currencies.repository.ts'
import type { SymbolRow } from './symbols.repository.ts'
import { SYMBOL_HEAD_FIELDS } from './symbols.schemas.ts'

/** A currency property object, as the reference lists it. */
export function currencyProperty(row: CurrencyRow) {
  return {
    name: { fa: row.name_fa, en: row.name_en },
    symbol: row.code,
    precision: row.precision,
    icon: row.icon,
    is_crypto: row.is_crypto,
    color: row.color,
    unit_value_irr: row.unit_value_irr,
  }
}
export type CurrencyProperty = ReturnType<typeof currencyProperty>

/** The reference's symbol record, in its field order. Decimals are the database's own text of the stored `numeric`. */
export function symbolRecord(row: SymbolRow, currencies: ReadonlyMap<string, CurrencyRow>) {
  const properties: Record<string, CurrencyProperty> = {}
  for (const code of [row.base, row.quote]) {
    const currency = currencies.get(code)
    // The foreign keys make a missing currency impossible short of a broken database.
    if (!currency) throw new Error(`currency ${code} of symbol ${row.symbol} is missing`)
    properties[code] = currencyProperty(currency)
  }
  return {
    ...commonRecord(row),
    symbol: row.symbol,
    price_precision: row.price_precision,
    quantity_precision: row.quantity_precision,
    min_order_quantity: row.min_order_quantity,
    tick_size: row.tick_size,
    daily_fluctuation_price_limit_percent: row.daily_fluctuation_price_limit_percent,
    maker_fee_percent: row.maker_fee_percent,
    taker_fee_percent: row.taker_fee_percent,
    max_order_quantity: row.max_order_quantity,
    min_notional: row.min_notional,
    description: row.description,
    is_active: row.is_active,
    properties,
  }
}
export type SymbolRecord = ReturnType<typeof symbolRecord>

const symbolHeads = makeHeads(SYMBOL_HEAD_FIELDS)

export function symbolEnvelope(page: Page<SymbolRow>, currencies: ReadonlyMap<string, CurrencyRow>): ListEnvelope<SymbolRecord> {
  return {
    heads: symbolHeads,
    items: page.rows.map((row) => symbolRecord(row, currencies)),
    total: page.total,
    offset: page.offset,
    limit: page.limit,
  }
}

/** The REST bytes of a symbol list answer, rendered once per cached answer. */
export function symbolListJson(entry: CachedSymbolPage): Buffer {
  entry.rest ??= Buffer.from(JSON.stringify(symbolEnvelope(entry.page, entry.currencies)))
  return entry.rest
}
