import type { Selectable } from 'kysely'
import type { Timestamp } from '../../db.ts'

export interface SessionTable {
  id: string
  client_id: string
  tenant_id: string
  created_at: Timestamp
  expires_at: string
  revoked_at: string | null
  revoked_reason: string | null
}
export type SessionRow = Selectable<SessionTable>

export interface RefreshTokenTable {
  jti: string
  session_id: string
  client_id: string
  issued_at: Timestamp
  expires_at: string
  used_at: string | null
  revoked_at: string | null
}
export type RefreshTokenRow = Selectable<RefreshTokenTable>
