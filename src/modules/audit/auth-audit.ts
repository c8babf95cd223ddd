import type { AuditTrail } from './audit-trail.ts'

/**
 * What logins and refreshes leave in the audit trail (docs/operations.md, "Audit trail"). Never
 * the secret, a token or a digest of either: a record names clients, sessions and addresses.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The client id as given, when it is one (anything else is recorded as null: it names no client). */
const givenClientId = (clientId: unknown) => (typeof clientId === 'string' && UUID.test(clientId) ? clientId.toLowerCase() : null)

/** A refused login: folded per (client id, address, minute), with `count`. */
export function loginFailed(audit: Pick<AuditTrail, 'fold'>, clientId: unknown, tenantId: string | null, ip: string): void {
  const id = givenClientId(clientId)
  audit.fold(`login_failed|${id}|${ip}`, {
    action: 'auth.login_failed',
    actor: { client_id: id, tenant_id: tenantId },
    target: { type: 'client', id },
    ip,
    outcome: 'failed',
    details: {},
  })
}

/** A session opened: written behind the answer, so the login waits for no audit append. */
export function loginSucceeded(
  ctx: { services: { audit: Pick<AuditTrail, 'recordBehind'> }; clientIp: string; requestId: string },
  claims: { sub: string; tenant_id: string; session_id: string },
): void {
  ctx.services.audit.recordBehind({
    action: 'auth.login',
    actor: { client_id: claims.sub, tenant_id: claims.tenant_id },
    target: { type: 'session', id: claims.session_id },
    ip: ctx.clientIp,
    request_id: ctx.requestId,
    outcome: 'ok',
  })
}

/** A refresh token presented again: `revoked` names the session it revoked (after the reuse window). */
export function refreshReused(
  audit: Pick<AuditTrail, 'record'>,
  presented: { sub: string; tenant_id: string; session_id: string },
  ip: string,
  revoked: string | undefined,
): Promise<void> {
  return audit.record({
    action: 'auth.refresh_reused',
    actor: { client_id: presented.sub, tenant_id: presented.tenant_id },
    target: { type: 'session', id: presented.session_id },
    ip,
    outcome: 'denied',
    details: { session_revoked: revoked !== undefined },
  })
}
