import type { Insertable, Selectable } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { TenantTable } from '../../../db/schema.ts'

export type TenantRow = Selectable<TenantTable>

export async function insertTenant(db: Db, tenant: Insertable<TenantTable>): Promise<TenantRow> {
  return db.insertInto('tenants').values(tenant).returningAll().executeTakeFirstOrThrow()
}

export async function findTenant(db: Db, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()
}
