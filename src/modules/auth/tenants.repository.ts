import type { Insertable, Selectable } from 'kysely'
import type { Db, Timestamp } from '../../db.ts'

export interface TenantTable {
  id: string
  name: string
  created_at: Timestamp
  updated_at: Timestamp
}
export type TenantRow = Selectable<TenantTable>

export async function insertTenant(db: Db, tenant: Insertable<TenantTable>): Promise<TenantRow> {
  return db.insertInto('tenants').values(tenant).returningAll().executeTakeFirstOrThrow()
}

export async function findTenant(db: Db, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()
}
