import type { Page } from '../../../core/lists.ts'
import { nullIfNotFound } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { deliveryRecord, webhookRecord } from './webhook-records.ts'
import type { DeliveryRow, EndpointRow } from './webhooks.repository.ts'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookWithSecret,
} from './webhooks.ts'

/** The same endpoints and attempts as REST (docs/webhooks.md), through the same operations. */

export const Webhook = builder.objectRef<EndpointRow>('Webhook').implement({
  description: "An endpoint of the caller's tenant that its events are POSTed to, signed, in sequence order.",
  fields: (t) => ({
    uid: t.exposeID('uid'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: 'The tenant-stream event types delivered.' }),
    description: t.exposeString('description'),
    isActive: t.exposeBoolean('is_active', { description: 'False: paused, or disabled after its last retry failed (see disabledReason).' }),
    disabledReason: t.exposeString('disabled_reason', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (w) => webhookRecord(w).created_at }),
    updatedAt: t.field({ type: 'DateTime', resolve: (w) => webhookRecord(w).updated_at }),
  }),
})

const WebhookWithSecretPayload = builder.objectRef<WebhookWithSecret>('WebhookWithSecret').implement({
  description: 'A webhook and its signing secret: shown only when created and when rotated.',
  fields: (t) => ({
    webhook: t.field({ type: Webhook, resolve: (p) => p.row }),
    secret: t.exposeString('secret', { description: 'whsec_ and base64: signs every delivery (Standard Webhooks).' }),
  }),
})

const WebhookDelivery = builder.objectRef<DeliveryRow>('WebhookDelivery').implement({
  description: 'One attempt to deliver one event.',
  fields: (t) => ({
    eventSequence: t.string({
      description: "The event's sequence in the tenant stream (a 64-bit integer, as text).",
      resolve: (d) => String(d.event_sequence),
    }),
    attempt: t.exposeInt('attempt', { description: '1 for the first try, 2 for the first retry, …' }),
    statusCode: t.exposeInt('status_code', { nullable: true, description: 'Null when no answer came.' }),
    durationMs: t.exposeInt('duration_ms'),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => deliveryRecord(d).created_at }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => deliveryRecord(d).next_attempt_at }),
  }),
})

const WebhookPage = builder.objectRef<Page<EndpointRow>>('WebhookPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Webhook], resolve: (page) => page.rows }),
    total: t.exposeInt('total'),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const WebhookDeliveryPage = builder.objectRef<Page<DeliveryRow>>('WebhookDeliveryPage').implement({
  fields: (t) => ({
    items: t.field({ type: [WebhookDelivery], resolve: (page) => page.rows }),
    total: t.exposeInt('total'),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

/** Paging arguments as REST's query text, so both faces report the same `detail`. */
const paging = (args: { offset?: number | null; limit?: number | null }) => ({
  ...(args.offset == null ? {} : { offset: String(args.offset) }),
  ...(args.limit == null ? {} : { limit: String(args.limit) }),
})

builder.queryField('webhooks', (t) =>
  t.field({
    type: WebhookPage,
    description: "Requires webhooks:read. The caller's tenant's webhooks, oldest first. Same rules as GET /api/exchange/v1/webhooks.",
    args: { offset: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => listWebhooks(ctx, paging(args)),
  }),
)

builder.queryField('webhook', (t) =>
  t.field({
    type: Webhook,
    nullable: true,
    description: "Requires webhooks:read. Null when no such webhook exists; another tenant's is FORBIDDEN.",
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getWebhook(ctx, String(args.uid))),
  }),
)

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: WebhookDeliveryPage,
    description: "Requires webhooks:read. A webhook's delivery attempts, newest first. Same rules as GET /api/exchange/v1/webhooks/<uid>/deliveries.",
    args: { uid: t.arg.id({ required: true }), offset: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => listWebhookDeliveries(ctx, String(args.uid), paging(args)),
  }),
)

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'https (http only where the service allows it); never a private address.' }),
    events: t.stringList({ required: true, description: 'Tenant-stream event types, each needing the scope that reads it.' }),
    description: t.string(),
  }),
})

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  fields: (t) => ({
    url: t.string(),
    events: t.stringList(),
    description: t.string(),
    isActive: t.boolean({ description: 'false pauses deliveries; true resumes them where they stopped.' }),
  }),
})

/** Only the fields given: a null is sent on as null, so the schema refuses it as REST does. */
const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))

builder.mutationField('createWebhook', (t) =>
  t.field({
    type: WebhookWithSecretPayload,
    description: 'Requires webhooks:write. Same rules and errors as POST /api/exchange/v1/webhooks (CONFLICT beyond 10 per tenant).',
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, { input }, ctx) => createWebhook(ctx, () => defined({ url: input.url, events: input.events, description: input.description })),
  }),
)

builder.mutationField('updateWebhook', (t) =>
  t.field({
    type: Webhook,
    description: 'Requires webhooks:write. Same rules as PATCH /api/exchange/v1/webhooks/<uid>.',
    args: { uid: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (_root, { uid, input }, ctx) =>
      updateWebhook(ctx, String(uid), () => defined({ url: input.url, events: input.events, description: input.description, is_active: input.isActive })),
  }),
)

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    type: Webhook,
    description: 'Requires webhooks:write. Deletes a webhook and its delivery attempts; answers it as it was.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, { uid }, ctx) => deleteWebhook(ctx, String(uid)),
  }),
)

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: WebhookWithSecretPayload,
    description: 'Requires webhooks:write. A new secret; the old one also signs (a second signature) for 24 h.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, { uid }, ctx) => rotateWebhookSecret(ctx, String(uid)),
  }),
)

builder.mutationField('replayWebhook', (t) =>
  t.field({
    type: Webhook,
    description: 'Requires webhooks:write. Delivers again every wanted event after `after` (a sequence, as text) and resumes a disabled webhook.',
    args: { uid: t.arg.id({ required: true }), after: t.arg.string({ required: true }) },
    resolve: (_root, { uid, after }, ctx) => replayWebhook(ctx, String(uid), () => ({ after })),
  }),
)
