import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { transfer } from '../src/modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const WEBHOOKS = '/api/exchange/v1/webhooks'
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const errorBody = (error: string, message: string) => ({ message, error, detail: message })
const URL_A = 'https://hooks.bank.example/exchange'

let server: TestServer
let bank: TestClient
let other: TestClient
let reader: TestClient
let noAccounts: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server, { funded: false })
  other = await createTestClient(server, { funded: false })
  reader = await createTestClient(server, { funded: false, scopes: ['webhooks:read'] })
  noAccounts = await createTestClient(server, { funded: false, scopes: ['orders:read', 'webhooks:read', 'webhooks:write'] })
})
afterAll(async () => {
  await server?.close()
})

const create = (body: unknown, token = bank.token) => server.request('POST', WEBHOOKS, { token, body })

describe('default scopes', () => {
  it('gives new clients webhooks:read and webhooks:write', () => {
    expect(bank.scopes).toEqual([
      'symbols:read',
      'orders:read',
      'orders:write',
      'users:read',
      'users:write',
      'accounts:read',
      'webhooks:read',
      'webhooks:write',
    ])
  })
})

describe('POST /api/exchange/v1/webhooks', () => {
  it('creates an endpoint and shows its secret once', async () => {
    const res = await create({ url: URL_A, events: ['fill', 'order.updated', 'fill'], description: 'Back office' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      url: URL_A,
      events: ['fill', 'order.updated'],
      description: 'Back office',
      is_active: true,
      disabled_reason: null,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: res.body.created_at,
      secret: expect.stringMatching(SECRET),
    })
    const one = await server.request('GET', `${WEBHOOKS}/${res.body.uid}`, { token: reader.token })
    expect(one.status).toBe(403)
    const own = await server.request('GET', `${WEBHOOKS}/${res.body.uid}`, { token: bank.token })
    expect(own.status).toBe(200)
    const { secret: _secret, ...record } = res.body
    expect(own.body).toEqual(record)
    // Stored encrypted or not, the secret is never in a read answer.
    expect(own.text).not.toContain('whsec_')
    await server.request('DELETE', `${WEBHOOKS}/${res.body.uid}`, { token: bank.token })
  })

  it('refuses bad input with 422 naming every problem, and creates nothing', async () => {
    const before = (await server.request('GET', WEBHOOKS, { token: bank.token })).body.total
    const res = await create({ url: 'ftp://x', events: ['fill', 'trade'], extra: 1 })
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['body', 'url'], 'value_error.url'],
      [['body', 'events', 1], expect.stringMatching(/enum/)],
      [['body', 'extra'], 'value_error.extra'],
    ])
    expect((await create({ url: URL_A, events: [] })).status).toBe(422)
    expect((await create({ url: `https://x.example/${'a'.repeat(3000)}`, events: ['fill'] })).status).toBe(422)
    expect((await server.request('GET', WEBHOOKS, { token: bank.token })).body.total).toBe(before)
  })

  it('refuses http and private addresses unless the service allows them', async () => {
    for (const url of [
      'http://hooks.bank.example/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/latest',
      'https://[fd00:ec2::254]/',
      'https://localhost/x',
      'https://10.1.2.3/',
    ]) {
      const res = await create({ url, events: ['fill'] })
      expect(res.status, url).toBe(422)
      expect(res.body.detail[0]).toMatchObject({ type: 'value_error.url.refused', loc: ['body', 'url'] })
    }
  })

  it('takes only event types the caller may read', async () => {
    const res = await create({ url: URL_A, events: ['fill', 'balance'] }, noAccounts.token)
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      {
        type: 'value_error.event_type.scope',
        loc: ['body', 'events', 1],
        msg: 'balance events require the accounts:read scope',
        input: 'balance',
        ctx: { scope: 'accounts:read' },
      },
    ])
  })

  it('requires webhooks:write (403), before reading the body', async () => {
    const res = await create({ nonsense: true }, reader.token)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(errorBody('permission_denied', 'Access denied: requires webhooks:write'))
  })

  it('allows at most 10 per tenant (409)', async () => {
    const made = []
    for (let i = 0; i < 10; i++) made.push((await create({ url: `${URL_A}/${i}`, events: ['fill'] }, other.token)).status)
    expect(made).toEqual(Array(10).fill(201))
    const eleventh = await create({ url: URL_A, events: ['fill'] }, other.token)
    expect(eleventh.status).toBe(409)
    expect(eleventh.body).toEqual(errorBody('conflict', 'A tenant has at most 10 webhooks: delete one first'))
    const list = await server.request('GET', `${WEBHOOKS}?limit=3&offset=8`, { token: other.token })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ total: 10, offset: 8, limit: 3 })
    expect(list.body.items.map((w: { url: string }) => w.url)).toEqual([`${URL_A}/8`, `${URL_A}/9`])
    expect(Object.keys(list.body.heads)).toEqual(['uid', 'url', 'events', 'description', 'is_active', 'disabled_reason', 'created_at', 'updated_at'])
    expect(list.body.heads.url).toEqual({ en: 'URL' })
  })
})

describe('PATCH, DELETE, rotate-secret, replay', () => {
  it('changes what is given and keeps the rest', async () => {
    const { body: created } = await create({ url: URL_A, events: ['fill'] })
    const res = await server.request('PATCH', `${WEBHOOKS}/${created.uid}`, { token: bank.token, body: { events: ['order.created'], is_active: false } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ uid: created.uid, url: URL_A, events: ['order.created'], is_active: false, disabled_reason: null })
    const bad = await server.request('PATCH', `${WEBHOOKS}/${created.uid}`, { token: bank.token, body: { url: 'http://plain.example/' } })
    expect(bad.status).toBe(422)
    expect((await server.request('PATCH', `${WEBHOOKS}/${created.uid}`, { token: other.token, body: {} })).status).toBe(403)
    expect((await server.request('PATCH', `${WEBHOOKS}/not-a-uid`, { token: bank.token, body: {} })).body).toEqual(
      errorBody('not_found', 'Webhook not-a-uid not found'),
    )
    const rotated = await server.request('POST', `${WEBHOOKS}/${created.uid}/rotate-secret`, { token: bank.token })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(SECRET)
    expect(rotated.body.secret).not.toBe(created.secret)
    const deleted = await server.request('DELETE', `${WEBHOOKS}/${created.uid}`, { token: bank.token })
    expect(deleted.status).toBe(200)
    expect(deleted.body.uid).toBe(created.uid)
    expect((await server.request('GET', `${WEBHOOKS}/${created.uid}`, { token: bank.token })).status).toBe(404)
  })

  it('replays from a sequence within the stream (422 past it), and lists attempts', async () => {
    const { body: created } = await create({ url: URL_A, events: ['balance'] })
    await transfer(server.services.db, { tenant_id: bank.tenantId, currency: 'USD', amount: '5', kind: 'deposit', reference: `r-${created.uid}` })
    const past = await server.request('POST', `${WEBHOOKS}/${created.uid}/replay`, { token: bank.token, body: { after: 1000 } })
    expect(past.status).toBe(422)
    expect(past.body.detail[0]).toMatchObject({ type: 'value_error.number.not_le', loc: ['body', 'after'] })
    const replay = await server.request('POST', `${WEBHOOKS}/${created.uid}/replay`, { token: bank.token, body: { after: 0 } })
    expect(replay.status).toBe(200)
    expect(replay.body).toMatchObject({ uid: created.uid, is_active: true })
    const deliveries = await server.request('GET', `${WEBHOOKS}/${created.uid}/deliveries`, { token: bank.token })
    expect(deliveries.status).toBe(200)
    expect(Object.keys(deliveries.body.heads)).toEqual(['event_sequence', 'attempt', 'status_code', 'duration_ms', 'error', 'created_at', 'next_attempt_at'])
    await server.request('DELETE', `${WEBHOOKS}/${created.uid}`, { token: bank.token })
  })
})

describe('GraphQL parity', () => {
  const fields = 'uid url events description isActive disabledReason createdAt updatedAt'
  it('creates, reads, changes and deletes with the same rules and records as REST', async () => {
    const made = await server.graphql<any, any>(
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${fields} } } }`,
      { input: { url: URL_A, events: ['fill'], description: 'GraphQL' } },
      { token: bank.token },
    )
    expect(made.errors).toBeUndefined()
    const webhook = made.data.createWebhook.webhook
    expect(made.data.createWebhook.secret).toMatch(SECRET)
    const rest = await server.request('GET', `${WEBHOOKS}/${webhook.uid}`, { token: bank.token })
    expect(webhook).toEqual({
      uid: rest.body.uid,
      url: rest.body.url,
      events: rest.body.events,
      description: rest.body.description,
      isActive: rest.body.is_active,
      disabledReason: rest.body.disabled_reason,
      createdAt: rest.body.created_at,
      updatedAt: rest.body.updated_at,
    })
    const refused = await server.graphql<any, any>(
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`,
      { input: { url: 'https://127.0.0.1/', events: ['fill'] } },
      { token: bank.token },
    )
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' })
    const forbidden = await server.graphql<any, any>(`query ($uid: ID!) { webhook(uid: $uid) { uid } }`, { uid: webhook.uid }, { token: other.token })
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' })
    const paused = await server.graphql<any, any>(
      `mutation ($uid: ID!) { updateWebhook(uid: $uid, input: { isActive: false }) { isActive } }`,
      { uid: webhook.uid },
      { token: bank.token },
    )
    expect(paused.data.updateWebhook).toEqual({ isActive: false })
    const list = await server.graphql<any, any>(`{ webhooks { total items { uid } } }`, {}, { token: bank.token })
    expect(list.data.webhooks.items.map((w: { uid: string }) => w.uid)).toContain(webhook.uid)
    const deliveries = await server.graphql<any, any>(
      `query ($uid: ID!) { webhookDeliveries(uid: $uid) { total items { attempt } } }`,
      { uid: webhook.uid },
      { token: bank.token },
    )
    expect(deliveries.data.webhookDeliveries).toEqual({ total: 0, items: [] })
    const deleted = await server.graphql<any, any>(`mutation ($uid: ID!) { deleteWebhook(uid: $uid) { uid } }`, { uid: webhook.uid }, { token: bank.token })
    expect(deleted.data.deleteWebhook).toEqual({ uid: webhook.uid })
    const gone = await server.graphql<any, any>(`query ($uid: ID!) { webhook(uid: $uid) { uid } }`, { uid: webhook.uid }, { token: bank.token })
    expect(gone.data.webhook).toBeNull()
  })
})
