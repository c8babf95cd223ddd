import { randomUUID } from 'node:crypto'

import type { Db } from '../../src/db/database.ts'
import { upsertCurrency } from '../../src/modules/exchange/symbols/currencies.repository.ts'
import { upsertSymbol } from '../../src/modules/exchange/symbols/symbols.repository.ts'
import { fundTenants } from './funding.ts'

let markets = 0

export interface MarketRules {
  price_precision: number
  quantity_precision: number
  min_order_quantity: string
  tick_size: string
  daily_fluctuation_price_limit_percent: string
}

const DEFAULT_RULES: MarketRules = {
  price_precision: 2,
  quantity_precision: 2,
  min_order_quantity: '0.01',
  tick_size: '0.01',
  daily_fluctuation_price_limit_percent: '100',
}

/**
 * A market of its own, so a test's book holds only its own orders: two fresh currencies and the
 * symbol between them, active, without a reference price.
 */
export async function createMarket(db: Db, rules: Partial<MarketRules> = {}, { funded = true }: { funded?: boolean } = {}): Promise<string> {
  const n = ++markets
  const tag = `${process.pid % 1000}${n}`.slice(-6)
  const [base, quote] = [`B${tag}`, `Q${tag}`]
  for (const code of [base, quote]) {
    await upsertCurrency(db, {
      code,
      name_fa: code,
      name_en: code,
      precision: 2,
      icon: `https://exchange.test/icons/${code}.svg`,
      is_crypto: false,
      color: '#123456',
      unit_value_irr: 1,
    })
  }
  const symbol = `${base}-${quote}`
  await upsertSymbol(db, {
    uid: randomUUID(),
    user_id: 'test',
    meta_data: null,
    symbol,
    base,
    quote,
    description: `Test market ${n}`,
    is_active: true,
    ...DEFAULT_RULES,
    ...rules,
  })
  // Every tenant so far can pay in the new currencies (test/helpers/auth.ts funds tenants made later).
  if (funded) await fundTenants(db, undefined, [base, quote])
  return symbol
}
