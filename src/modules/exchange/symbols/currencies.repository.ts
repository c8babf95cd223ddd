import { type Insertable, type Selectable, sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { CurrencyTable } from '../../../db/schema.ts'

export type CurrencyRow = Selectable<CurrencyTable>

export async function upsertCurrency(db: Db, currency: Insertable<CurrencyTable>): Promise<void> {
  await db
    .insertInto('currencies')
    .values(currency)
    .onConflict((oc) =>
      oc.column('code').doUpdateSet((eb) => ({
        name_fa: eb.ref('excluded.name_fa'),
        name_en: eb.ref('excluded.name_en'),
        precision: eb.ref('excluded.precision'),
        icon: eb.ref('excluded.icon'),
        is_crypto: eb.ref('excluded.is_crypto'),
        color: eb.ref('excluded.color'),
        unit_value_irr: eb.ref('excluded.unit_value_irr'),
        updated_at: sql<string>`timezone('utc', now())`,
      })),
    )
    .execute()
}

export async function findCurrenciesByCodes(db: Db, codes: readonly string[]): Promise<CurrencyRow[]> {
  if (codes.length === 0) return []
  return db
    .selectFrom('currencies')
    .selectAll()
    .where('code', 'in', [...codes])
    .execute()
}
