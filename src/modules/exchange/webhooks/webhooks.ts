import { hasScope, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { AppError, conflict, echoed, forbidden, notFound, validationError, type ValidationIssue } from '../../../core/errors.ts'
import { uuidv7 } from '../../../core/ids.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import { TENANT_EVENT_SCOPES } from '../events/event-payloads.ts'
import { firstSequenceAfter, lastSequence, tenantStream } from '../events/events.repository.ts'
import { PREVIOUS_SECRET_MS } from './webhook-dispatcher.ts'
import { generateWebhookSecret, sealSecret } from './webhook-secrets.ts'
import { targetRefusal } from './webhook-sender.ts'
import {
  deleteEndpoint,
  type DeliveryRow,
  type EndpointRow,
  findEndpoint,
  insertEndpoint,
  listDeliveryRows,
  listEndpointRows,
  storedTime,
  updateEndpoint,
} from './webhooks.repository.ts'
import { createWebhookBody, MAX_WEBHOOKS_PER_TENANT, replayWebhookBody, updateWebhookBody, webhookListQuery } from './webhooks.schemas.ts'

export const WEBHOOKS_READ = 'webhooks:read'
export const WEBHOOKS_WRITE = 'webhooks:write'

/**
 * Webhook endpoints of a tenant (docs/webhooks.md): both faces go through these operations;
 * `webhook-dispatcher.ts` delivers. Each endpoint belongs to its creator's tenant. Bodies are
 * read once the caller's scope is known, so a caller without it is told 403, not about its body.
 */

export interface WebhookWithSecret {
  row: EndpointRow
  secret: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function createWebhook(ctx: RequestContext, input: () => unknown): Promise<WebhookWithSecret> {
  const principal = await ctx.auth.require(WEBHOOKS_WRITE)
  const body = parseInput(createWebhookBody, await input(), 'body')
  checkTarget(ctx, principal, body)
  const { db, config } = ctx.services
  const secret = generateWebhookSecret()
  const now = storedTime(ctx.services.webhooks.now())
  const row = await insertEndpoint(
    db,
    {
      uid: uuidv7(),
      tenant_id: principal.tenantId,
      client_id: principal.clientId,
      scopes: principal.scopes,
      url: body.url,
      events: body.events,
      description: body.description,
      is_active: true,
      disabled_reason: null,
      secret: sealSecret(secret, config.keyEncryptionKey),
      previous_secret: null,
      previous_secret_expires_at: null,
      // Events from now on: what was committed before the endpoint existed is the events API's.
      cursor: await lastSequence(db, tenantStream(principal.tenantId)),
      next_attempt_at: null,
      created_at: now,
      updated_at: now,
    },
    MAX_WEBHOOKS_PER_TENANT,
  )
  if (!row) throw conflict(`A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} webhooks: delete one first`)
  return { row, secret }
}

export async function listWebhooks(ctx: RequestContext, input: unknown): Promise<Page<EndpointRow>> {
  const principal = await ctx.auth.require(WEBHOOKS_READ)
  const query = parseInput(webhookListQuery, input, 'query')
  const page = await listEndpointRows(ctx.services.db, principal.tenantId, query.offset, query.limit)
  return { ...page, offset: query.offset, limit: query.limit }
}

export async function getWebhook(ctx: RequestContext, uid: string): Promise<EndpointRow> {
  const principal = await ctx.auth.require(WEBHOOKS_READ)
  return ownEndpoint(ctx, principal, uid)
}

export async function updateWebhook(ctx: RequestContext, uid: string, input: () => unknown): Promise<EndpointRow> {
  const principal = await ctx.auth.require(WEBHOOKS_WRITE)
  // The webhook first: a missing one is 404 whatever the body says.
  const row = await ownEndpoint(ctx, principal, uid)
  const body = parseInput(updateWebhookBody, await input(), 'body')
  checkTarget(ctx, principal, body)
  const changes: Parameters<typeof updateEndpoint>[2] = { updated_at: storedTime(ctx.services.webhooks.now()) }
  if (body.url !== undefined) changes.url = body.url
  if (body.description !== undefined) changes.description = body.description
  // The types an endpoint receives are those its events' chooser may read.
  if (body.events !== undefined) Object.assign(changes, { events: body.events, scopes: principal.scopes })
  if (body.is_active === false) changes.is_active = false
  // Resuming starts over on the event that stopped it, with a full schedule of retries.
  if (body.is_active === true && !row.is_active) Object.assign(changes, { is_active: true, disabled_reason: null, failures: 0, next_attempt_at: null })
  const updated = await updateEndpoint(ctx.services.db, row.uid, changes)
  if (!updated) throw notFound(`Webhook ${uid} not found`)
  ctx.services.webhooks.wake()
  return updated
}

export async function deleteWebhook(ctx: RequestContext, uid: string): Promise<EndpointRow> {
  const principal = await ctx.auth.require(WEBHOOKS_WRITE)
  const row = await ownEndpoint(ctx, principal, uid)
  const deleted = await deleteEndpoint(ctx.services.db, row.uid)
  if (!deleted) throw notFound(`Webhook ${uid} not found`)
  return deleted
}

/** A new secret; the one it replaces still signs (a second signature) for 24 h, so receivers switch without losing a delivery. */
export async function rotateWebhookSecret(ctx: RequestContext, uid: string): Promise<WebhookWithSecret> {
  const principal = await ctx.auth.require(WEBHOOKS_WRITE)
  const row = await ownEndpoint(ctx, principal, uid)
  const secret = generateWebhookSecret()
  const now = ctx.services.webhooks.now()
  const updated = await updateEndpoint(ctx.services.db, row.uid, {
    secret: sealSecret(secret, ctx.services.config.keyEncryptionKey),
    previous_secret: row.secret,
    previous_secret_expires_at: storedTime(now + PREVIOUS_SECRET_MS),
    updated_at: storedTime(now),
  })
  if (!updated) throw notFound(`Webhook ${uid} not found`)
  return { row: updated, secret }
}

export async function listWebhookDeliveries(ctx: RequestContext, uid: string, input: unknown): Promise<Page<DeliveryRow>> {
  const principal = await ctx.auth.require(WEBHOOKS_READ)
  const query = parseInput(webhookListQuery, input, 'query')
  const row = await ownEndpoint(ctx, principal, uid)
  const page = await listDeliveryRows(ctx.services.db, row.uid, query.offset, query.limit)
  return { ...page, offset: query.offset, limit: query.limit }
}

/**
 * Delivers again every wanted event after `after`, in order, and resumes a disabled endpoint:
 * `after` must be within the tenant's stream (422) and its events still kept (410).
 */
export async function replayWebhook(ctx: RequestContext, uid: string, input: () => unknown): Promise<EndpointRow> {
  const principal = await ctx.auth.require(WEBHOOKS_WRITE)
  const row = await ownEndpoint(ctx, principal, uid)
  const body = parseInput(replayWebhookBody, await input(), 'body')
  const { db, config } = ctx.services
  const key = tenantStream(row.tenant_id)
  const last = await lastSequence(db, key)
  const loc = ['body', 'after']
  if (body.after > last) {
    throw validationError([
      { type: 'value_error.number.not_le', loc, msg: `ensure this value is less than or equal to ${last}`, input: body.after, ctx: { limit_value: last } },
    ])
  }
  if (body.after < last) {
    const first = await firstSequenceAfter(db, key, body.after)
    if (first !== body.after + 1) {
      const oldest = (first ?? last + 1) - 1
      throw new AppError(
        'events_expired',
        `Events after ${body.after} are no longer kept (events are kept ${config.eventRetentionDays} days); replay after ${oldest}`,
      )
    }
  }
  const updated = await updateEndpoint(db, row.uid, {
    cursor: body.after,
    failures: 0,
    next_attempt_at: null,
    is_active: true,
    disabled_reason: null,
    updated_at: storedTime(ctx.services.webhooks.now()),
  })
  if (!updated) throw notFound(`Webhook ${uid} not found`)
  ctx.services.webhooks.wake()
  return updated
}

/** The caller's tenant's endpoint: 404 for none (or a malformed uid), 403 for another tenant's. */
async function ownEndpoint(ctx: RequestContext, principal: Principal, uid: string): Promise<EndpointRow> {
  const row = UUID.test(uid) ? await findEndpoint(ctx.services.db, uid.toLowerCase()) : undefined
  if (!row) throw notFound(`Webhook ${echoed(uid)} not found`)
  if (row.tenant_id !== principal.tenantId) throw forbidden("Access denied: another tenant's webhook")
  return row
}

/**
 * What the schema cannot know: the URL's scheme and literal address against WEBHOOK_ALLOW_HTTP
 * and WEBHOOK_ALLOW_PRIVATE (names are checked again on every connection), and that the caller
 * may read each type asked for.
 */
function checkTarget(ctx: RequestContext, principal: Principal, body: { url?: string | undefined; events?: string[] | undefined }): void {
  const issues: ValidationIssue[] = []
  if (body.url !== undefined) {
    const { webhookAllowHttp, webhookAllowPrivate } = ctx.services.config
    const refusal = targetRefusal(new URL(body.url), { allowHttp: webhookAllowHttp, allowPrivate: webhookAllowPrivate })
    if (refusal) issues.push({ type: 'value_error.url.refused', loc: ['body', 'url'], msg: refusal, input: echoed(body.url, 1024) })
  }
  const scopes = TENANT_EVENT_SCOPES as Record<string, string>
  body.events?.forEach((type, i) => {
    const scope = scopes[type]!
    if (!hasScope(principal, scope)) {
      issues.push({
        type: 'value_error.event_type.scope',
        loc: ['body', 'events', i],
        msg: `${type} events require the ${scope} scope`,
        input: type,
        ctx: { scope },
      })
    }
  })
  if (issues.length > 0) throw validationError(issues)
}
