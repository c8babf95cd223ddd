import { type Insertable, type Selectable, sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { SigningKeyTable } from '../../../db/schema.ts'

export type SigningKeyRow = Selectable<SigningKeyTable>

export async function insertSigningKey(db: Db, key: Insertable<SigningKeyTable>): Promise<SigningKeyRow> {
  return db.insertInto('signing_keys').values(key).returningAll().executeTakeFirstOrThrow()
}

/** Keys not yet retired, newest first: the first signs, all verify. */
export async function listUsableSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.selectFrom('signing_keys').selectAll().where('retired_at', 'is', null).orderBy('activated_at', 'desc').orderBy('kid', 'desc').execute()
}

export async function listAllSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('activated_at', 'desc').execute()
}

/** Rewrites a key's stored private part, only if it is still `expected`; whether it was rewritten. */
export async function replacePrivateKey(db: Db, kid: string, expected: string, replacement: string): Promise<boolean> {
  const result = await db
    .updateTable('signing_keys')
    .set({ private_key: replacement })
    .where('kid', '=', kid)
    .where('private_key', '=', expected)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
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
