import type { Generated, Selectable } from 'kysely'
import type { Timestamp } from '../../db.ts'

export interface UserTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  tenant_id: string
  username: string
  email: string
  is_active: Generated<boolean>
}
export type UserRow = Selectable<UserTable>
