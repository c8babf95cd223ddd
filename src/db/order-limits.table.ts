import type { Timestamp } from './column-types.ts'

/** A tenant's armed dead man's switch (migration 2026-12-14, docs/api.md "Order limits"): its open orders are cancelled at `deadline`. */
export interface CancelDeadlineTable {
  tenant_id: string
  deadline: Timestamp
  /** The client that armed it last. */
  armed_by: string
  updated_at: Timestamp
  /** Until when the sweeping instance that claimed this fired deadline has it (null: unclaimed). */
  claimed_until: Timestamp | null
}
