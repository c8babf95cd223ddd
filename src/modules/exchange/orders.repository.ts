import type { Generated, Selectable } from 'kysely'
import type { Decimal, Timestamp } from '../../db.ts'

export interface OrderTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  tenant_id: string
  client_order_id: string | null
  symbol: string
  side: 'buy' | 'sell'
  type: 'limit' | 'market'
  quantity: Decimal
  price: Decimal | null
  status: 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'rejected'
  filled_quantity: Generated<string>
}
export type OrderRow = Selectable<OrderTable>
