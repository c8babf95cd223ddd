import type { RequestContext } from '../../../core/context.ts'
import type { Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { CATALOG_DATA } from '../../../graphql/answer-reuse/catalog-fields.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { findCurrenciesByCodes } from './currencies.repository.ts'
import { findSymbolsByNames, type SymbolRow } from './symbols.repository.ts'
import { SYMBOL_ORDERABLE } from './symbols.schemas.ts'
import { getSymbol, listSymbols, symbolPriceBand } from './symbols.ts'

const LocalizedName = builder.objectRef<{ fa: string; en: string }>('LocalizedName').implement({
  fields: (t) => ({ fa: t.exposeString('fa', { extensions: CATALOG_DATA }), en: t.exposeString('en', { extensions: CATALOG_DATA }) }),
})

/** A currency's display properties; loaded per request in one batch for every symbol of a response. */
export const CurrencyProperty = builder.loadableObject('CurrencyProperty', {
  description: 'Display properties of a currency.',
  load: (codes: string[], ctx: RequestContext) => findCurrenciesByCodes(ctx.services.db, codes),
  sort: (currency) => currency.code,
  fields: (t) => ({
    name: t.field({ type: LocalizedName, resolve: (c) => ({ fa: c.name_fa, en: c.name_en }), extensions: CATALOG_DATA }),
    symbol: t.exposeString('code', { description: 'Currency code', extensions: CATALOG_DATA }),
    precision: t.exposeInt('precision', { extensions: CATALOG_DATA }),
    icon: t.exposeString('icon', { extensions: CATALOG_DATA }),
    isCrypto: t.exposeBoolean('is_crypto', { extensions: CATALOG_DATA }),
    color: t.exposeString('color', { extensions: CATALOG_DATA }),
    unitValueIrr: t.field({
      type: 'Decimal',
      extensions: CATALOG_DATA,
      description: 'Value of one unit in rials, an integer; a Decimal because it outgrows GraphQL Int (32 bits).',
      resolve: (c) => String(c.unit_value_irr),
    }),
  }),
})

const PriceBand = builder.objectRef<{ min: string; max: string }>('PriceBand').implement({
  description: 'The prices a limit order may carry today: the reference price ± the daily fluctuation limit.',
  fields: (t) => ({ min: t.expose('min', { type: 'Decimal', extensions: CATALOG_DATA }), max: t.expose('max', { type: 'Decimal', extensions: CATALOG_DATA }) }),
})

/** A tradable pair. Loadable by name, so an order's market is batched with the others of a page. */
export const SymbolType = builder.loadableObject('Symbol', {
  description: 'A tradable currency pair with its trading rules.',
  load: (names: string[], ctx: RequestContext) => findSymbolsByNames(ctx.services.db, names),
  sort: (symbol) => symbol.symbol,
  fields: (t) => ({
    uid: t.exposeID('uid', { extensions: CATALOG_DATA }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => formatTimestamp(s.created_at), extensions: CATALOG_DATA }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => formatTimestamp(s.updated_at), extensions: CATALOG_DATA }),
    isDeleted: t.exposeBoolean('is_deleted', { extensions: CATALOG_DATA }),
    metaData: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.meta_data, extensions: CATALOG_DATA }),
    userId: t.exposeString('user_id', { extensions: CATALOG_DATA }),
    symbol: t.exposeString('symbol', { extensions: CATALOG_DATA }),
    pricePrecision: t.exposeInt('price_precision', { extensions: CATALOG_DATA }),
    quantityPrecision: t.exposeInt('quantity_precision', { description: 'May be negative: -1 means whole tens.', extensions: CATALOG_DATA }),
    minOrderQuantity: t.expose('min_order_quantity', { type: 'Decimal', extensions: CATALOG_DATA }),
    tickSize: t.expose('tick_size', { type: 'Decimal', extensions: CATALOG_DATA }),
    dailyFluctuationPriceLimitPercent: t.expose('daily_fluctuation_price_limit_percent', { type: 'Decimal', extensions: CATALOG_DATA }),
    makerFeePercent: t.expose('maker_fee_percent', {
      type: 'Decimal',
      extensions: CATALOG_DATA,
      description: "Percent of a fill's notional the resting (maker) order pays, in the quote currency.",
    }),
    takerFeePercent: t.expose('taker_fee_percent', {
      type: 'Decimal',
      extensions: CATALOG_DATA,
      description: "Percent of a fill's notional the arriving (taker) order pays, in the quote currency.",
    }),
    maxOrderQuantity: t.expose('max_order_quantity', {
      type: 'Decimal',
      nullable: true,
      extensions: CATALOG_DATA,
      description: 'The largest quantity one order may have; null: no limit.',
    }),
    minNotional: t.expose('min_notional', {
      type: 'Decimal',
      nullable: true,
      extensions: CATALOG_DATA,
      description: 'The smallest price × quantity of an order, in the quote currency (market orders at the reference price); null: no minimum.',
    }),
    description: t.exposeString('description', { extensions: CATALOG_DATA }),
    isActive: t.exposeBoolean('is_active', { extensions: CATALOG_DATA }),
    base: t.field({ type: CurrencyProperty, resolve: (s) => s.base, extensions: CATALOG_DATA }),
    quote: t.field({ type: CurrencyProperty, resolve: (s) => s.quote, extensions: CATALOG_DATA }),
    properties: t.field({ type: [CurrencyProperty], description: 'Base, then quote.', resolve: (s) => [s.base, s.quote], extensions: CATALOG_DATA }),
    referencePrice: t.expose('reference_price', { type: 'Decimal', nullable: true, extensions: CATALOG_DATA }),
    priceBand: t.field({ type: PriceBand, nullable: true, resolve: (s) => symbolPriceBand(s), extensions: CATALOG_DATA }),
  }),
})

const SymbolPage = builder.objectRef<Page<SymbolRow>>('SymbolPage').implement({
  fields: (t) => ({
    items: t.field({ type: [SymbolType], resolve: (page) => page.rows, extensions: CATALOG_DATA }),
    total: t.exposeInt('total', { description: 'All symbols matching the filter, not only this page.', extensions: CATALOG_DATA }),
    offset: t.exposeInt('offset', { extensions: CATALOG_DATA }),
    limit: t.exposeInt('limit', { extensions: CATALOG_DATA }),
  }),
})

const SymbolFilter = builder.inputType('SymbolFilter', {
  fields: (t) => ({
    symbol: t.string(),
    isActive: t.boolean(),
    createdAtFrom: t.field({ type: 'DateTime', extensions: CATALOG_DATA }),
    createdAtTo: t.field({ type: 'DateTime', extensions: CATALOG_DATA }),
    updatedAtFrom: t.field({ type: 'DateTime', extensions: CATALOG_DATA }),
    updatedAtTo: t.field({ type: 'DateTime', extensions: CATALOG_DATA }),
  }),
})

const SymbolOrderBy = orderByInput('Symbol', SYMBOL_ORDERABLE)

// A document that reads only fields declared CATALOG_DATA (these two and the types under them) may
// be answered without running any resolver here: GraphQL answer reuse keeps its result, and repeats
// Yoga's whole answer, while the catalog's generation is unchanged (caches/symbol-catalog.ts). It
// still checks the token, `symbols:read` and the rate limit as `getSymbol`/`listSymbols` do. A field
// declared CATALOG_DATA must read nothing but the symbols and currencies tables, and these root
// fields must require nothing but `symbols:read`; a field reading anything else (a market's book,
// trades, ticker) is declared NOT_CATALOG_DATA.
builder.queryField('symbols', (t) =>
  t.field({
    type: SymbolPage,
    extensions: CATALOG_DATA,
    description: 'Requires symbols:read. Same rules as GET /api/exchange/v1/symbols.',
    args: {
      filter: t.arg({ type: SymbolFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: SymbolOrderBy }),
    },
    resolve: async (_root, args, ctx) => {
      const { page, currencies } = await listSymbols(ctx, listQueryFromArgs(args))
      // The cached answer carries its currencies: `properties` then costs no query.
      const loader = CurrencyProperty.getDataloader(ctx)
      for (const [code, currency] of currencies) loader.prime(code, currency)
      return page
    },
  }),
)

builder.queryField('symbol', (t) =>
  t.field({
    type: SymbolType,
    nullable: true,
    extensions: CATALOG_DATA,
    description: 'Requires symbols:read. Null when no such symbol exists.',
    args: { symbol: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getSymbol(ctx, args.symbol)),
  }),
)
