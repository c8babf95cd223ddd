import { Batcher } from '../../../core/batcher.ts'
import type { Db } from '../../../db/database.ts'
import { insertRuledOrders, type OrderRow, type RuledOrder } from './orders.repository.ts'

export type OrderWrite =
  | { kind: 'inserted'; row: OrderRow }
  /** Another order of the same statement took this one's `client_order_id`; it holds it now. */
  | { kind: 'duplicate'; existing: OrderRow }
  /** Not inserted: its `client_order_id` was already used, or its market's rules changed. */
  | { kind: 'skipped' }

/** A failed statement changed nothing; an integrity violation (class 23) is one row's fault. */
function isIntegrityViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('23')
}

const key = (tenantId: string, clientOrderId: string) => `${tenantId}\n${clientOrderId}`

/**
 * Group commit for new orders: orders placed while earlier inserts are in flight go to the database
 * together, as one statement and one commit. Each caller learns its own order's fate only after
 * that statement returned, so nothing is acknowledged before it is committed.
 */
export class OrderWrites {
  readonly #batcher: Batcher<RuledOrder, OrderWrite>

  constructor(db: Db, options: { maxConcurrentBatches: number; maxBatchSize?: number }) {
    this.#batcher = new Batcher((orders) => insertBatch(db, orders), {
      maxBatchSize: options.maxBatchSize ?? 200,
      maxConcurrentBatches: options.maxConcurrentBatches,
      // A check or foreign-key violation fails the whole statement; alone, it fails only its own order.
      retryAlone: isIntegrityViolation,
    })
  }

  insert(order: RuledOrder): Promise<OrderWrite> {
    return this.#batcher.submit(order)
  }
}

async function insertBatch(db: Db, orders: readonly RuledOrder[]): Promise<OrderWrite[]> {
  const rows = await insertRuledOrders(db, orders)
  const byUid = new Map<string, OrderRow>()
  const byClientOrderId = new Map<string, OrderRow>()
  for (const row of rows) {
    byUid.set(row.uid, row)
    if (row.client_order_id !== null) byClientOrderId.set(key(row.tenant_id, row.client_order_id), row)
  }
  return orders.map(({ order }): OrderWrite => {
    const row = byUid.get(order.uid)
    if (row) return { kind: 'inserted', row }
    const existing = order.client_order_id === null ? undefined : byClientOrderId.get(key(order.tenant_id, order.client_order_id))
    return existing ? { kind: 'duplicate', existing } : { kind: 'skipped' }
  })
}

/**
 * Order inserts in flight at once: half the pool, so reads and other writes always find a
 * connection; the embedded database runs one statement at a time anyway.
 */
export function orderWriteBatches(kind: 'postgres' | 'pglite', poolSize: number): number {
  return kind === 'pglite' ? 1 : Math.max(1, Math.floor(poolSize / 2))
}
