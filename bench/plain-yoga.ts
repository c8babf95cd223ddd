import { createServer } from 'node:http'

import { createSchema, createYoga } from 'graphql-yoga'
import { importJWK, type JWK, jwtVerify } from 'jose'

/**
 * The second yardstick: plain graphql-yoga with a jose token check, as a team would write it with
 * no work of ours. The symbol types are the service's (same names, fields and scalars), the data
 * are the service's REST symbol list held in memory (`PLAIN_YOGA_SYMBOLS_B64`), and every request
 * must carry a bearer token signed as ours are (EdDSA), verified with jose's `jwtVerify` against
 * `PLAIN_YOGA_JWK`. Yoga's own parser and validation caches are on (its defaults).
 */
interface RestCurrency {
  name: { fa: string; en: string }
  symbol: string
  precision: number
  icon: string
  is_crypto: boolean
  color: string
  unit_value_irr: string
}
interface RestSymbol {
  uid: string
  created_at: string
  updated_at: string
  is_deleted: boolean
  meta_data: unknown
  user_id: string
  symbol: string
  price_precision: number
  quantity_precision: number
  min_order_quantity: string
  tick_size: string
  daily_fluctuation_price_limit_percent: string
  maker_fee_percent: string
  taker_fee_percent: string
  description: string
  is_active: boolean
  properties: Record<string, RestCurrency>
}

const symbols: RestSymbol[] = JSON.parse(Buffer.from(process.env.PLAIN_YOGA_SYMBOLS_B64 ?? '', 'base64').toString('utf8')).items
const key = await importJWK(JSON.parse(process.env.PLAIN_YOGA_JWK ?? '{}') as JWK, 'EdDSA')

const currency = (c: RestCurrency) => ({
  name: c.name,
  symbol: c.symbol,
  precision: c.precision,
  icon: c.icon,
  isCrypto: c.is_crypto,
  color: c.color,
  unitValueIrr: c.unit_value_irr,
})

const schema = createSchema<{ principal: unknown }>({
  typeDefs: /* GraphQL */ `
    scalar DateTime
    scalar Decimal
    scalar JSON
    type LocalizedName {
      fa: String!
      en: String!
    }
    type CurrencyProperty {
      color: String!
      icon: String!
      isCrypto: Boolean!
      name: LocalizedName!
      precision: Int!
      symbol: String!
      unitValueIrr: Decimal!
    }
    type PriceBand {
      min: Decimal!
      max: Decimal!
    }
    type Symbol {
      base: CurrencyProperty!
      createdAt: DateTime!
      dailyFluctuationPriceLimitPercent: Decimal!
      description: String!
      isActive: Boolean!
      isDeleted: Boolean!
      makerFeePercent: Decimal!
      metaData: JSON
      minOrderQuantity: Decimal!
      priceBand: PriceBand
      pricePrecision: Int!
      properties: [CurrencyProperty!]!
      quantityPrecision: Int!
      quote: CurrencyProperty!
      referencePrice: Decimal
      symbol: String!
      takerFeePercent: Decimal!
      tickSize: Decimal!
      uid: ID!
      updatedAt: DateTime!
      userId: String!
    }
    type SymbolPage {
      items: [Symbol!]!
      limit: Int!
      offset: Int!
      total: Int!
    }
    type Query {
      symbols(limit: Int, offset: Int): SymbolPage!
    }
  `,
  resolvers: {
    Query: {
      symbols: (_root: unknown, args: { limit?: number | null; offset?: number | null }, ctx: { request: Request }) =>
        authorised(ctx.request).then(() => {
          const offset = args.offset ?? 0
          const limit = args.limit ?? 100
          return { items: symbols.slice(offset, offset + limit), total: symbols.length, offset, limit }
        }),
    },
    Symbol: {
      createdAt: (s: RestSymbol) => s.created_at,
      updatedAt: (s: RestSymbol) => s.updated_at,
      isDeleted: (s: RestSymbol) => s.is_deleted,
      metaData: (s: RestSymbol) => s.meta_data,
      userId: (s: RestSymbol) => s.user_id,
      pricePrecision: (s: RestSymbol) => s.price_precision,
      quantityPrecision: (s: RestSymbol) => s.quantity_precision,
      minOrderQuantity: (s: RestSymbol) => s.min_order_quantity,
      tickSize: (s: RestSymbol) => s.tick_size,
      dailyFluctuationPriceLimitPercent: (s: RestSymbol) => s.daily_fluctuation_price_limit_percent,
      makerFeePercent: (s: RestSymbol) => s.maker_fee_percent,
      takerFeePercent: (s: RestSymbol) => s.taker_fee_percent,
      isActive: (s: RestSymbol) => s.is_active,
      properties: (s: RestSymbol) => Object.values(s.properties).map(currency),
      base: (s: RestSymbol) => currency(Object.values(s.properties)[0]!),
      quote: (s: RestSymbol) => currency(Object.values(s.properties)[1]!),
      referencePrice: () => null,
      priceBand: () => null,
    },
  },
})

/** The bearer token, verified with jose as a plain setup does it: on every request. */
async function authorised(request: Request): Promise<void> {
  const match = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')
  if (!match) throw new Error('unauthenticated')
  await jwtVerify(match[1]!, key, { algorithms: ['EdDSA'] })
}

const yoga = createYoga({ schema, logging: false, landingPage: false, graphiql: false })
const server = createServer((req, res) => void yoga(req, res))
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
