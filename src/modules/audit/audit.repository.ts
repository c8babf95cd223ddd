import { sql } from 'kysely'

import type { PageRows } from '../../core/lists.ts'
import type { Db } from '../../db/database.ts'
import type { AuditListQuery } from './audit.schemas.ts'
import { type AuditRecord, fromStored, type StoredRow } from './audit-chain.ts'

function filtered(db: Db, query: Omit<AuditListQuery, 'offset' | 'limit' | 'order_by'>) {
  let q = db.selectFrom('audit_records')
  if (query.created_at_from) q = q.where('created_at', '>=', query.created_at_from)
  if (query.created_at_to) q = q.where('created_at', '<=', query.created_at_to)
  if (query.action !== undefined) q = q.where('action', '=', query.action)
  if (query.actor_client_id !== undefined) q = q.where('actor_client_id', '=', query.actor_client_id)
  if (query.target_id !== undefined) q = q.where('target_id', '=', query.target_id)
  if (query.outcome !== undefined) q = q.where('outcome', '=', query.outcome)
  return q
}

/** One page of records matching the filters, and how many match in all. */
export async function listAuditRecords(db: Db, query: AuditListQuery): Promise<PageRows<AuditRecord>> {
  const direction = query.order_by.startsWith('-') ? 'desc' : 'asc'
  const [rows, total] = await Promise.all([
    filtered(db, query)
      .select([
        sql<string>`seq::text`.as('seq'),
        'uid',
        sql<string>`created_at::text`.as('created_at'),
        'action',
        'actor',
        'target_type',
        'target_id',
        'ip',
        'request_id',
        'outcome',
        'details',
        'prev_hash',
        'hash',
      ])
      .orderBy(sql.ref('audit_records.created_at'), direction)
      .orderBy(sql.ref('audit_records.seq'), direction)
      .offset(query.offset)
      .limit(query.limit)
      .execute(),
    filtered(db, query)
      .select(sql<string>`count(*)::text`.as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: (rows as StoredRow[]).map(fromStored), total: Number(total.n) }
}
