import { randomUUID } from 'node:crypto'

import type { Db } from '../../../db/database.ts'
import { upsertCurrency } from './currencies.repository.ts'
import { demoCurrencies, demoSymbols } from './demo-data.ts'
import { upsertSymbol } from './symbols.repository.ts'

export const SYSTEM_USER_ID = 'system'

/** Idempotent: re-running refreshes the demo rules and keeps ids, timestamps and activation state. */
export async function seedDemoMarket(db: Db): Promise<{ currencies: number; symbols: number }> {
  await db.transaction().execute(async (trx) => {
    for (const currency of demoCurrencies) await upsertCurrency(trx, currency)
    for (const { symbol, ...rules } of demoSymbols) {
      const [base, quote] = symbol.split('-') as [string, string]
      await upsertSymbol(trx, { uid: randomUUID(), user_id: SYSTEM_USER_ID, meta_data: null, symbol, base, quote, ...rules })
    }
  })
  return { currencies: demoCurrencies.length, symbols: demoSymbols.length }
}
