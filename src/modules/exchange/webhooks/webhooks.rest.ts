import type { DocumentedRoute } from '../../../http/router.ts'
import { deliveryEnvelope, webhookEnvelope, webhookRecord, withSecret } from './webhook-records.ts'
import {
  createWebhookBody,
  deliveryListSchema,
  replayWebhookBody,
  updateWebhookBody,
  webhookListQuery,
  webhookListSchema,
  webhookParams,
  webhookRecordSchema,
  webhookWithSecretSchema,
} from './webhooks.schemas.ts'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhook,
  rotateWebhookSecret,
  updateWebhook,
  WEBHOOKS_READ,
  WEBHOOKS_WRITE,
} from './webhooks.ts'

const WEBHOOKS = '/api/exchange/v1/webhooks'
const example = { url: 'https://hooks.bank.example/exchange', events: ['order.updated', 'fill'], description: 'Back office: fills' }
const notFound = 'No webhook has this uid'
const otherTenant = "Another tenant's webhook"

export const webhookRoutes: DocumentedRoute[] = [
  {
    method: 'POST',
    path: WEBHOOKS,
    handler: async ({ ctx, body }) => {
      const { row, secret } = await createWebhook(ctx, body)
      return { status: 201, body: withSecret(row, secret) }
    },
    doc: {
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        "Your tenant's events of the types named are POSTed to `url`, signed, in sequence order, from the next event committed (docs/webhooks.md). At most 10 per tenant. The answer carries `secret`, shown only here and on rotation.",
      tag: 'exchange',
      scope: WEBHOOKS_WRITE,
      body: createWebhookBody,
      bodyExamples: { webhook: { summary: 'Fills and order changes', value: example } },
      responses: { 201: { description: 'Created, with its signing secret', body: webhookWithSecretSchema } },
      errors: { conflict: 'The tenant has 10 webhooks already' },
    },
  },
  {
    method: 'GET',
    path: WEBHOOKS,
    handler: async ({ ctx, query }) => ({ body: webhookEnvelope(await listWebhooks(ctx, query)) }),
    doc: {
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      description: "Your tenant's webhooks, oldest first, without their secrets.",
      tag: 'exchange',
      scope: WEBHOOKS_READ,
      query: webhookListQuery,
      responses: { 200: { description: 'One page of webhooks', body: webhookListSchema } },
    },
  },
  {
    method: 'GET',
    path: `${WEBHOOKS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: webhookRecord(await getWebhook(ctx, params.uid!)) }),
    doc: {
      operationId: 'getWebhook',
      summary: 'One webhook',
      tag: 'exchange',
      scope: WEBHOOKS_READ,
      params: webhookParams,
      responses: { 200: { description: 'The webhook', body: webhookRecordSchema } },
      errors: { forbidden: otherTenant, not_found: notFound },
    },
  },
  {
    method: 'PATCH',
    path: `${WEBHOOKS}/:uid`,
    handler: async ({ ctx, params, body }) => ({ body: webhookRecord(await updateWebhook(ctx, params.uid!, body)) }),
    doc: {
      operationId: 'updateWebhook',
      summary: 'Change a webhook',
      description:
        '`url`, `events`, `description`, `is_active`: what is given changes. `is_active: false` pauses deliveries; `true` resumes a paused or disabled webhook from the event it stopped at.',
      tag: 'exchange',
      scope: WEBHOOKS_WRITE,
      params: webhookParams,
      body: updateWebhookBody,
      bodyExamples: { pause: { summary: 'Pause deliveries', value: { is_active: false } } },
      responses: { 200: { description: 'The changed webhook', body: webhookRecordSchema } },
      errors: { forbidden: otherTenant, not_found: notFound },
    },
  },
  {
    method: 'DELETE',
    path: `${WEBHOOKS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: webhookRecord(await deleteWebhook(ctx, params.uid!)) }),
    doc: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'Deliveries stop, and its delivery attempts go with it.',
      tag: 'exchange',
      scope: WEBHOOKS_WRITE,
      params: webhookParams,
      responses: { 200: { description: 'The deleted webhook', body: webhookRecordSchema } },
      errors: { forbidden: otherTenant, not_found: notFound },
    },
  },
  {
    method: 'POST',
    path: `${WEBHOOKS}/:uid/rotate-secret`,
    handler: async ({ ctx, params }) => {
      const { row, secret } = await rotateWebhookSecret(ctx, params.uid!)
      return { body: withSecret(row, secret) }
    },
    doc: {
      operationId: 'rotateWebhookSecret',
      summary: "Rotate a webhook's secret",
      description:
        'A new secret, shown only here. For 24 h deliveries carry two signatures in `webhook-signature`, by the new secret and by the one it replaces, so a receiver can switch without refusing one.',
      tag: 'exchange',
      scope: WEBHOOKS_WRITE,
      params: webhookParams,
      responses: { 200: { description: 'The webhook with its new secret', body: webhookWithSecretSchema } },
      errors: { forbidden: otherTenant, not_found: notFound },
    },
  },
  {
    method: 'GET',
    path: `${WEBHOOKS}/:uid/deliveries`,
    handler: async ({ ctx, params, query }) => ({ body: deliveryEnvelope(await listWebhookDeliveries(ctx, params.uid!, query)) }),
    doc: {
      operationId: 'listWebhookDeliveries',
      summary: "List a webhook's delivery attempts",
      description: 'Every attempt, newest first: the event, the try, what the receiver answered and when the next try is.',
      tag: 'exchange',
      scope: WEBHOOKS_READ,
      params: webhookParams,
      query: webhookListQuery,
      responses: { 200: { description: 'One page of attempts', body: deliveryListSchema } },
      errors: { forbidden: otherTenant, not_found: notFound },
    },
  },
  {
    method: 'POST',
    path: `${WEBHOOKS}/:uid/replay`,
    handler: async ({ ctx, params, body }) => ({ body: webhookRecord(await replayWebhook(ctx, params.uid!, body)) }),
    doc: {
      operationId: 'replayWebhook',
      summary: 'Deliver again from a sequence',
      description:
        'Every wanted event of the tenant stream after `after` is delivered again, in order, and a disabled webhook resumes. `after` past the stream is 422; events no longer kept are 410 `events_expired`.',
      tag: 'exchange',
      scope: WEBHOOKS_WRITE,
      params: webhookParams,
      body: replayWebhookBody,
      bodyExamples: { replay: { summary: 'From sequence 42 on', value: { after: 41 } } },
      responses: { 200: { description: 'The webhook, resuming', body: webhookRecordSchema } },
      errors: { forbidden: otherTenant, not_found: notFound, events_expired: 'The events after `after` are no longer kept' },
    },
  },
]
