import type { RequestContext } from '../../../core/context.ts'
import type { Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { findCurrenciesByCodes } from './currencies.repository.ts'
import { findSymbolsByNames, type SymbolRow } from './symbols.repository.ts'
import { SYMBOL_ORDERABLE } from './symbols.schemas.ts'
import { getSymbol, listSymbols, symbolPriceBand } from './symbols.ts'

const LocalizedName = builder.objectRef<{ fa: string; en: string }>('LocalizedName').implement({
  fields: (t) => ({ fa: t.exposeString('fa'), en: t.exposeString('en') }),
})

/** A currency's display properties; loaded per request in one batch for every symbol of a response. */
export const CurrencyProperty = builder.loadableObject('CurrencyProperty', {
  description: 'Display properties of a currency.',
  load: (codes: string[], ctx: RequestContext) => findCurrenciesByCodes(ctx.services.db, codes),
  sort: (currency) => currency.code,
  fields: (t) => ({
    name: t.field({ type: LocalizedName, resolve: (c) => ({ fa: c.name_fa, en: c.name_en }) }),
    symbol: t.exposeString('code', { description: 'Currency code' }),
    precision: t.exposeInt('precision'),
    icon: t.exposeString('icon'),
    isCrypto: t.exposeBoolean('is_crypto'),
    color: t.exposeString('color'),
    unitValueIrr: t.field({
      type: 'Decimal',
      description: 'Value of one unit in rials, an integer; a Decimal because it outgrows GraphQL Int (32 bits).',
      resolve: (c) => String(c.unit_value_irr),
    }),
  }),
})

const PriceBand = builder.objectRef<{ min: string; max: string }>('PriceBand').implement({
  description: 'The prices a limit order may carry today: the reference price ± the daily fluctuation limit.',
  fields: (t) => ({ min: t.expose('min', { type: 'Decimal' }), max: t.expose('max', { type: 'Decimal' }) }),
})

/** A tradable pair. Loadable by name, so an order's market is batched with the others of a page. */
export const SymbolType = builder.loadableObject('Symbol', {
  description: 'A tradable currency pair with its trading rules.',
  load: (names: string[], ctx: RequestContext) => findSymbolsByNames(ctx.services.db, names),
  sort: (symbol) => symbol.symbol,
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => formatTimestamp(s.created_at) }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => formatTimestamp(s.updated_at) }),
    isDeleted: t.exposeBoolean('is_deleted'),
    metaData: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.meta_data }),
    userId: t.exposeString('user_id'),
    symbol: t.exposeString('symbol'),
    pricePrecision: t.exposeInt('price_precision'),
    quantityPrecision: t.exposeInt('quantity_precision', { description: 'May be negative: -1 means whole tens.' }),
    minOrderQuantity: t.expose('min_order_quantity', { type: 'Decimal' }),
    tickSize: t.expose('tick_size', { type: 'Decimal' }),
    dailyFluctuationPriceLimitPercent: t.expose('daily_fluctuation_price_limit_percent', { type: 'Decimal' }),
    makerFeePercent: t.expose('maker_fee_percent', {
      type: 'Decimal',
      description: "Percent of a fill's notional the resting (maker) order pays, in the quote currency.",
    }),
    takerFeePercent: t.expose('taker_fee_percent', {
      type: 'Decimal',
      description: "Percent of a fill's notional the arriving (taker) order pays, in the quote currency.",
    }),
    description: t.exposeString('description'),
    isActive: t.exposeBoolean('is_active'),
    base: t.field({ type: CurrencyProperty, resolve: (s) => s.base }),
    quote: t.field({ type: CurrencyProperty, resolve: (s) => s.quote }),
    properties: t.field({ type: [CurrencyProperty], description: 'Base, then quote.', resolve: (s) => [s.base, s.quote] }),
    referencePrice: t.expose('reference_price', { type: 'Decimal', nullable: true }),
    priceBand: t.field({ type: PriceBand, nullable: true, resolve: (s) => symbolPriceBand(s) }),
  }),
})

const SymbolPage = builder.objectRef<Page<SymbolRow>>('SymbolPage').implement({
  fields: (t) => ({
    items: t.field({ type: [SymbolType], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All symbols matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const SymbolFilter = builder.inputType('SymbolFilter', {
  fields: (t) => ({
    symbol: t.string(),
    isActive: t.boolean(),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
    updatedAtFrom: t.field({ type: 'DateTime' }),
    updatedAtTo: t.field({ type: 'DateTime' }),
  }),
})

const SymbolOrderBy = orderByInput('Symbol', SYMBOL_ORDERABLE)

// A document that reads only the catalog (these fields, `symbol`, and the types under them) may be
// answered without running any resolver here: symbolsResultCachePlugin keeps its result, and
// RecordedAnswers repeats Yoga's whole answer, while the catalog is unchanged. Both still check the
// token, `symbols:read` and the rate limit as `getSymbol`/`listSymbols` do; a change to what these
// resolvers return must keep caches/catalog-documents.ts's idea of "catalog only" true.
builder.queryField('symbols', (t) =>
  t.field({
    type: SymbolPage,
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
    description: 'Requires symbols:read. Null when no such symbol exists.',
    args: { symbol: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getSymbol(ctx, args.symbol)),
  }),
)
