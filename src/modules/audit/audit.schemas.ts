import { z } from 'zod'

import { listQuerySchema } from '../../core/lists.ts'
import { listEnvelopeSchema, timestampText, uuidText } from '../../core/response-schemas.ts'
import { AUDIT_OUTCOMES } from './audit-chain.ts'

/** Reading the audit trail: admins holding it (docs/operations.md, "Audit trail"). */
export const AUDIT_READ = 'audit:read'

/** An audit record's fields, in order. */
export const AUDIT_FIELDS = ['uid', 'created_at', 'action', 'actor', 'target', 'ip', 'request_id', 'outcome', 'details', 'hash'] as const

const ACTION = /^[a-z][a-z0-9_.-]*$/

/** Records never change: no `updated_at`, nor its filters. Sorted by `created_at`, then by their place in the chain. */
export const auditListQuery = listQuerySchema(
  {
    action: z.string().max(100, { abort: true }).regex(ACTION, 'an action is lower-case words joined by dots (client.create)').optional(),
    actor_client_id: z.uuid().optional(),
    target_id: z.string().min(1).max(200).optional(),
    outcome: z.enum(AUDIT_OUTCOMES).optional(),
  },
  ['created_at'],
).omit({ updated_at_from: true, updated_at_to: true })
export type AuditListQuery = z.infer<typeof auditListQuery>

// --- Answers (docs/contracts.md) ---

export const auditRecordSchema = z
  .object({
    uid: uuidText,
    created_at: timestampText,
    action: z.string().meta({ description: 'What was done: `client.create`, `auth.login`, `auth.login_failed`, …', example: 'client.create' }),
    actor: z
      .union([z.object({ client_id: z.string().nullable(), tenant_id: z.string().nullable() }), z.object({ cli: z.literal(true) })])
      .meta({ description: 'The client that acted (null `client_id` when a failed login named no client), or `{"cli": true}` for an operator.' }),
    target: z.object({ type: z.string(), id: z.string().nullable() }).nullable().meta({ description: 'What the action was done to.' }),
    ip: z.string().nullable().meta({ description: "The caller's address (null for the CLI)." }),
    request_id: z.string().nullable(),
    outcome: z.enum(AUDIT_OUTCOMES),
    details: z
      .record(z.string(), z.unknown())
      .meta({ description: 'What else is known; folded records carry `count`, `first_at` and `last_at`. Never a secret or token.' }),
    hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: "SHA-256 over the record and the previous record's hash (hex)." }),
  })
  .meta({ id: 'AuditRecord' })

export const auditListSchema = listEnvelopeSchema('AuditRecordList', auditRecordSchema, AUDIT_FIELDS)
