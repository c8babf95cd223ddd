import type { RequestContext } from '../../core/context.ts'
import { type ListEnvelope, makeHeads, type Page } from '../../core/lists.ts'
import { parseInput } from '../../core/validation.ts'
import { requireAdmin } from './admin-operations.ts'
import { listAuditRecords } from './audit.repository.ts'
import { AUDIT_FIELDS, AUDIT_READ, auditListQuery } from './audit.schemas.ts'
import type { AuditRecord } from './audit-chain.ts'

/** `GET /api/admin/v1/audit` and `auditRecords`: admins holding `audit:read` (a refusal is itself recorded). */
export async function listAudit(ctx: RequestContext, input: unknown): Promise<Page<AuditRecord>> {
  await requireAdmin(ctx, AUDIT_READ, 'audit.list')
  const query = parseInput(auditListQuery, input, 'query')
  const page = await listAuditRecords(ctx.services.db, query)
  return { ...page, offset: query.offset, limit: query.limit }
}

const heads = makeHeads(AUDIT_FIELDS)

export function auditEnvelope(page: Page<AuditRecord>): ListEnvelope<AuditRecord> {
  return { heads, items: page.rows, total: page.total, offset: page.offset, limit: page.limit }
}
