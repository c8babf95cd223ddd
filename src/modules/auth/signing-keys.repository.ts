import { sql, type Insertable, type Selectable } from 'kysely'
import type { Db, Timestamp } from '../../db.ts'

export interface SigningKeyTable {
  kid: string
  alg: string
  public_jwk: Record<string, unknown>
  private_key: string
  created_at: Timestamp
  activated_at: Timestamp
  retired_at: Timestamp | null
}
export type SigningKeyRow = Selectable<SigningKeyTable>

export async function insertSigningKey(db: Db, key: Insertable<SigningKeyTable>): Promise<SigningKeyRow> {
  return db.insertInto('signing_keys').values(key).returningAll().executeTakeFirstOrThrow()
}

/** Keys not yet retired, newest first: the first signs, all verify. */
export async function listUsableSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where('retired_at', 'is', null)
    .orderBy('activated_at', 'desc')
    .orderBy('kid', 'desc')
    .execute()
}

export async function listAllSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('activated_at', 'desc').execute()
}

/** Retires keys older than `keep` that can no longer have live tokens (older than `maxTokenAgeSeconds`). */
export async function retireSigningKeysBefore(db: Db, activatedBefore: string): Promise<number> {
  const rows = await db
    .updateTable('signing_keys')
    .set({ retired_at: sql<string>`timezone('utc', now())` })
    .where('retired_at', 'is', null)
    .where('activated_at', '<', activatedBefore)
    .returning('kid')
    .execute()
  return rows.length
}
