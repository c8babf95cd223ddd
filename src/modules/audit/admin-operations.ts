import { hasScope, isAdmin, type Principal } from '../../core/auth.ts'
import type { RequestContext } from '../../core/context.ts'
import { forbidden, toAppError } from '../../core/errors.ts'
import type { AuditEntry } from './audit-chain.ts'
import type { AuditTrail } from './audit-trail.ts'

/**
 * The one gate of admin operations, whichever face calls them (docs/operations.md, "Audit
 * trail"): a caller without the admin role or the operation's scope gets 403 and a `denied`
 * record; a mutation that ran gets an `ok` record (or `failed`, with the error kind) before it
 * answers. No other code refuses non-admins (test/audit.test.ts checks), so an admin operation
 * added later is audited by going through here.
 */

/** The audit trail as a request reaches it. */
type AuditedContext = Pick<RequestContext, 'auth' | 'clientIp' | 'requestId'> & { services: { audit: Pick<AuditTrail, 'record'> } }

export const ADMIN_ROLE_REQUIRED = 'Access denied: requires the admin role'

function entry(ctx: AuditedContext, principal: Principal, action: string, fields: Pick<AuditEntry, 'outcome' | 'target' | 'details'>): AuditEntry {
  return {
    action,
    actor: { client_id: principal.clientId, tenant_id: principal.tenantId },
    ip: ctx.clientIp,
    request_id: ctx.requestId,
    ...fields,
  }
}

/** The caller, an admin holding `scope`; otherwise the 403 (the scope's first, as `require` says it), recorded as `denied`. */
export async function requireAdmin(ctx: AuditedContext, scope: string, action: string): Promise<Principal> {
  const principal = await ctx.auth.principal()
  const refusal = !hasScope(principal, scope) ? `Access denied: requires ${scope}` : !isAdmin(principal) ? ADMIN_ROLE_REQUIRED : undefined
  if (refusal === undefined) return principal
  await ctx.services.audit.record(entry(ctx, principal, action, { outcome: 'denied', target: null, details: { reason: refusal } }))
  throw forbidden(refusal)
}

/** Records what a caller (not necessarily an admin) did that the trail keeps, e.g. a bank's withdrawal request. */
export async function recordCallerAction(
  ctx: AuditedContext,
  principal: Principal,
  action: string,
  fields: Pick<AuditEntry, 'target' | 'details'>,
): Promise<void> {
  await ctx.services.audit.record(entry(ctx, principal, action, { outcome: 'ok', ...fields }))
}

/** What an admin mutation tells the trail about what it did. */
export interface AdminOutcome<T> {
  result: T
  target: { type: string; id: string | null }
  details?: Record<string, unknown>
}

/**
 * Runs an admin mutation: `requireAdmin`, then `run`, then its record (`ok`, or `failed` with the
 * error's kind when it threw a client error; the error is thrown on either way).
 */
export async function adminMutation<T>(
  ctx: AuditedContext,
  options: { scope: string; action: string },
  run: (principal: Principal) => Promise<AdminOutcome<T>>,
): Promise<T> {
  const principal = await requireAdmin(ctx, options.scope, options.action)
  let outcome: AdminOutcome<T>
  try {
    outcome = await run(principal)
  } catch (error) {
    const failure = toAppError(error)
    const details = { error: failure.kind, message: failure.message }
    await ctx.services.audit.record(entry(ctx, principal, options.action, { outcome: 'failed', target: null, details })).catch(() => undefined)
    throw error
  }
  await ctx.services.audit.record(entry(ctx, principal, options.action, { outcome: 'ok', target: outcome.target, details: outcome.details ?? {} }))
  return outcome.result
}
