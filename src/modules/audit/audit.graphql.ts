import type { Page } from '../../core/lists.ts'
import { listQueryFromArgs, orderByInput } from '../../graphql/args.ts'
import { builder } from '../../graphql/builder.ts'
import { listAudit } from './audit.ts'
import { AUDIT_OUTCOMES, type AuditRecord } from './audit-chain.ts'

const AuditOutcome = builder.enumType('AuditOutcome', {
  values: AUDIT_OUTCOMES,
  description: 'ok: done; denied: refused (403, an address, a reused token); failed.',
})

const AuditTarget = builder.objectRef<{ type: string; id: string | null }>('AuditTarget').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    id: t.exposeString('id', { nullable: true }),
  }),
})

const AuditRecordType = builder.objectRef<AuditRecord>('AuditRecord').implement({
  description: 'One record of the audit trail (docs/operations.md, "Audit trail").',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.created_at }),
    action: t.exposeString('action'),
    actor: t.field({ type: 'JSON', description: '{client_id, tenant_id}, or {cli: true} for an operator.', resolve: (r) => r.actor }),
    target: t.field({ type: AuditTarget, nullable: true, resolve: (r) => r.target }),
    ip: t.exposeString('ip', { nullable: true }),
    requestId: t.exposeString('request_id', { nullable: true }),
    outcome: t.expose('outcome', { type: AuditOutcome }),
    details: t.field({ type: 'JSON', resolve: (r) => r.details }),
    hash: t.exposeString('hash', { description: "SHA-256 (hex) over the record and the previous record's hash." }),
  }),
})

const AuditRecordPage = builder.objectRef<Page<AuditRecord>>('AuditRecordPage').implement({
  fields: (t) => ({
    items: t.field({ type: [AuditRecordType], resolve: (page) => page.rows }),
    total: t.exposeInt('total', { description: 'All records matching the filter, not only this page.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const AuditRecordFilter = builder.inputType('AuditRecordFilter', {
  fields: (t) => ({
    action: t.string(),
    actorClientId: t.id(),
    targetId: t.string(),
    outcome: t.field({ type: AuditOutcome }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
  }),
})

const AuditRecordOrderBy = orderByInput('AuditRecord', ['created_at'])

builder.queryField('auditRecords', (t) =>
  t.field({
    type: AuditRecordPage,
    description: 'Admins with audit:read. The audit trail; same filters and rules as GET /api/admin/v1/audit.',
    args: {
      filter: t.arg({ type: AuditRecordFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: AuditRecordOrderBy }),
    },
    resolve: (_root, args, ctx) => listAudit(ctx, listQueryFromArgs(args)),
  }),
)
