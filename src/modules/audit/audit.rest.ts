import type { DocumentedRoute } from '../../http/router.ts'
import { AUDIT_READ, auditListQuery, auditListSchema } from './audit.schemas.ts'
import { auditEnvelope, listAudit } from './audit.ts'

export const auditRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/v1/audit',
    handler: async ({ ctx, query }) => ({ body: auditEnvelope(await listAudit(ctx, query)) }),
    doc: {
      operationId: 'listAuditRecords',
      summary: 'List audit records',
      description:
        'Admins only (role `admin`). Every operator and admin action, login, refused login (folded per client id, address and minute, with `count`), refresh-token reuse, refused address and refused admin call, oldest first by default. A refusal of this call is recorded too.',
      tag: 'admin',
      scope: AUDIT_READ,
      query: auditListQuery,
      responses: { 200: { description: 'One page of audit records', body: auditListSchema } },
      errors: { forbidden: 'The caller is not an admin, or lacks `audit:read`' },
    },
  },
]
