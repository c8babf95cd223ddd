import { type Insertable, type Selectable, sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { ClientTable } from '../../../db/schema.ts'

export type ClientRow = Selectable<ClientTable>

export async function insertClient(db: Db, client: Insertable<ClientTable>): Promise<ClientRow> {
  return db.insertInto('clients').values(client).returningAll().executeTakeFirstOrThrow()
}

export async function findClientById(db: Db, id: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst()
}

/** What login needs of a client. */
export type ClientCredentialsRow = Pick<ClientRow, 'id' | 'tenant_id' | 'secret_digest' | 'roles' | 'scopes' | 'is_active' | 'dpop_required'>

/** Many clients in one statement whatever their number (the text never changes with it). */
export async function findClientCredentials(db: Db, ids: readonly string[]): Promise<ClientCredentialsRow[]> {
  const { rows } = await sql<ClientCredentialsRow>`
    select id, tenant_id, secret_digest, roles, scopes, is_active, dpop_required from clients where id = any(${ids}::uuid[])`.execute(db)
  return rows
}

export async function listClientRows(db: Db): Promise<ClientRow[]> {
  return db.selectFrom('clients').selectAll().orderBy('created_at').orderBy('id').execute()
}

export async function countClients(db: Db): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow()
  return row.n
}

export async function updateClient(
  db: Db,
  id: string,
  changes: Partial<Pick<ClientRow, 'is_active' | 'secret_digest' | 'dpop_required'>>,
): Promise<ClientRow | undefined> {
  return db
    .updateTable('clients')
    .set({ ...changes, updated_at: sql<string>`timezone('utc', now())` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}
