import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Db } from '../src/db/database.ts'
import { transfer } from '../src/modules/exchange/accounts/accounts.ts'
import { appendTenantEvents } from '../src/modules/exchange/event-log/event-log.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { guardedLookup, isRefusedAddress } from '../src/modules/exchange/webhooks/webhook-addresses.ts'
import { RETRY_SCHEDULE_MS, WebhookDispatcher } from '../src/modules/exchange/webhooks/webhook-dispatcher.ts'
import { WebhookSender } from '../src/modules/exchange/webhooks/webhook-sender.ts'
import { storedTime } from '../src/modules/exchange/webhooks/webhooks.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'
import { signedBy, verifyNow, WebhookReceiver } from './helpers/webhook-receiver.ts'

const WEBHOOKS = '/api/exchange/v1/webhooks'
const ALLOW = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' }

let server: TestServer
let clock = Date.now()
let references = 0

beforeAll(async () => {
  // The dispatcher's clock is this test's: retries come when the test moves it, never by waiting.
  server = await startTestServer(ALLOW, undefined, { webhooks: { now: () => clock } })
  await seedDemoMarket(server.services.db)
})
afterAll(async () => {
  await server?.close()
})

/** `count` balance events in the tenant's stream (one deposit each), and a wake-up of the dispatcher. */
async function deposits(on: TestServer, tenantId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await transfer(on.services.db, { tenant_id: tenantId, currency: 'USD', amount: '1', kind: 'deposit', reference: `d-${++references}` })
  }
  on.services.webhooks.wake()
}

/** Events of these types appended to the tenant's stream as the event log writes them, in one statement. */
async function append(on: TestServer, tenantId: string, types: readonly ('balance' | 'withdrawal')[]): Promise<void> {
  const createdAt = storedTime(clock)
  const events = types.map((type, i) => ({ tenant_id: tenantId, ordinal: i + 1, type, rest: `,"type":"${type}","created_at":"${createdAt}"}` }))
  await appendTenantEvents(on.services.db, events, createdAt)
}

/** A handle on `db` that lists each statement it runs: a raw one by its first line, others by their kind. */
function countingStatements(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = []
  const counting = db.withPlugin({
    transformQuery: ({ node }) => {
      statements.push(node.kind === 'RawNode' ? (node as unknown as { sqlFragments: string[] }).sqlFragments[0]!.trim().split('\n')[0]! : node.kind)
      return node
    },
    transformResult: async ({ result }) => result,
  })
  return { db: counting, statements }
}

const cursorOf = async (uid: string) =>
  Number((await server.services.db.selectFrom('webhook_endpoints').select('cursor').where('uid', '=', uid).executeTakeFirstOrThrow()).cursor)

async function endpoint(on: TestServer, client: TestClient, url: string, events = ['balance']) {
  const res = await on.request('POST', WEBHOOKS, { token: client.token, body: { url, events } })
  expect(res.status).toBe(201)
  return res.body as { uid: string; secret: string }
}

const deliveries = async (uid: string, token: string) => (await server.request('GET', `${WEBHOOKS}/${uid}/deliveries`, { token })).body

/** Moves the dispatcher's clock and lets it run what became due. */
async function advance(ms: number): Promise<void> {
  clock += ms
  server.services.webhooks.wake()
  await server.services.webhooks.idle()
}

describe('delivery', () => {
  it('POSTs each wanted event in order, the events API bytes, signed the Standard Webhooks way', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    await deposits(server, bank.tenantId, 5)
    await eventually(async () => (receiver.received.length >= 5 ? true : undefined), 10_000)
    const listed = await server.request('GET', '/api/exchange/v1/events?after=0', { token: bank.token })
    expect(receiver.received.map((r) => r.id)).toEqual([1, 2, 3, 4, 5].map((n) => `${bank.tenantId}:${n}`))
    // Exactly the bytes the events API lists, each verified with the standardwebhooks package.
    const bodies = receiver.received.map((r) => r.body)
    expect(`[${bodies.join(',')}]`).toBe(JSON.stringify(listed.body.items))
    for (const r of receiver.received) {
      expect(verifyNow(hook.secret, r)).toEqual(JSON.parse(r.body))
      expect(r.headers['content-type']).toBe('application/json')
    }
    const list = await deliveries(hook.uid, bank.token)
    expect(list.total).toBe(5)
    expect(list.items[0]).toEqual({
      event_sequence: 5,
      attempt: 1,
      status_code: 200,
      duration_ms: expect.any(Number),
      error: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      next_attempt_at: null,
    })
    await receiver.stop()
  })

  it('retries on the schedule with the same webhook-id, later events waiting behind', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    let failures = 2
    receiver.status = () => (failures-- > 0 ? 500 : 200)
    await deposits(server, bank.tenantId, 2)
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined), 10_000)
    await server.services.webhooks.idle()
    const first = await deliveries(hook.uid, bank.token)
    expect(first.items).toEqual([expect.objectContaining({ event_sequence: 1, attempt: 1, status_code: 500, error: 'Answered 500' })])
    expect(Date.parse(`${first.items[0].next_attempt_at}Z`) - Date.parse(`${first.items[0].created_at}Z`)).toBe(5_000)
    // Before its time nothing is tried again, and event 2 waits.
    await advance(4_000)
    expect(receiver.received).toHaveLength(1)
    await advance(1_000)
    expect(receiver.received).toHaveLength(2)
    await advance(RETRY_SCHEDULE_MS[1]!)
    await eventually(async () => (receiver.received.length >= 4 ? true : undefined), 10_000)
    expect(receiver.received.map((r) => r.sequence)).toEqual([1, 1, 1, 2])
    expect(new Set(receiver.received.slice(0, 3).map((r) => r.id))).toEqual(new Set([`${bank.tenantId}:1`]))
    for (const r of receiver.received) expect(signedBy(hook.secret, r)).toBe(true)
    const attempts = (await deliveries(hook.uid, bank.token)).items.map((d: { event_sequence: number; attempt: number }) => [d.event_sequence, d.attempt])
    expect(attempts).toEqual([
      [2, 1],
      [1, 3],
      [1, 2],
      [1, 1],
    ])
    await receiver.stop()
  })

  it('disables the endpoint after the last try, and replay resumes it', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    receiver.status = () => 503
    await deposits(server, bank.tenantId, 2)
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined), 10_000)
    await server.services.webhooks.idle()
    for (const wait of RETRY_SCHEDULE_MS) await advance(wait)
    expect(receiver.received.map((r) => r.sequence)).toEqual(Array(8).fill(1))
    const disabled = await server.request('GET', `${WEBHOOKS}/${hook.uid}`, { token: bank.token })
    expect(disabled.body).toMatchObject({ is_active: false, disabled_reason: 'Event 1 failed 8 times; the last: Answered 503' })
    expect((await deliveries(hook.uid, bank.token)).items[0]).toMatchObject({ attempt: 8, next_attempt_at: null })
    await advance(RETRY_SCHEDULE_MS.at(-1)!)
    expect(receiver.received).toHaveLength(8)
    receiver.status = () => 200
    const replay = await server.request('POST', `${WEBHOOKS}/${hook.uid}/replay`, { token: bank.token, body: { after: 0 } })
    expect(replay.body).toMatchObject({ is_active: true, disabled_reason: null })
    await eventually(async () => (receiver.received.length >= 10 ? true : undefined), 10_000)
    expect(receiver.received.slice(8).map((r) => r.sequence)).toEqual([1, 2])
    await receiver.stop()
  })

  it('signs with both secrets for a day after a rotation', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    const rotated = (await server.request('POST', `${WEBHOOKS}/${hook.uid}/rotate-secret`, { token: bank.token })).body
    await deposits(server, bank.tenantId, 1)
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined), 10_000)
    const [r] = receiver.received
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2)
    // The clock was moved by the tests before: the signatures are checked without the timestamp's tolerance.
    expect(signedBy(rotated.secret, r!)).toBe(true)
    expect(signedBy(hook.secret, r!)).toBe(true)
    // A day later the old secret signs no more.
    clock += 86_400_000 + 1000
    await deposits(server, bank.tenantId, 1)
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 10_000)
    const later = receiver.received[1]!
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(signedBy(rotated.secret, later)).toBe(true)
    expect(signedBy(hook.secret, later)).toBe(false)
    await receiver.stop()
  })

  it('skips the types not asked for, and those its creator may not read', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url, ['order.created'])
    await deposits(server, bank.tenantId, 3)
    await server.services.webhooks.idle()
    expect(receiver.received).toHaveLength(0)
    expect((await deliveries(hook.uid, bank.token)).total).toBe(0)
    await receiver.stop()
  })
})

describe('cost', () => {
  it('passes over the types not taken in the statement that records the next delivery', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    await append(server, bank.tenantId, ['withdrawal', 'balance', 'withdrawal', 'withdrawal', 'balance', 'withdrawal'])
    server.services.webhooks.wake()
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 10_000)
    await server.services.webhooks.idle()
    expect(receiver.received.map((r) => r.sequence)).toEqual([2, 5])
    // The trailing withdrawal is behind the cursor too: nothing is left to look at.
    expect(await cursorOf(hook.uid)).toBe(6)
    expect((await deliveries(hook.uid, bank.token)).items.map((d: { event_sequence: number }) => d.event_sequence)).toEqual([5, 2])
    // A page of nothing it takes moves the cursor alone.
    await append(server, bank.tenantId, ['withdrawal', 'withdrawal'])
    server.services.webhooks.wake()
    await eventually(async () => ((await cursorOf(hook.uid)) === 8 ? true : undefined), 10_000)
    expect(receiver.received).toHaveLength(2)
    await receiver.stop()
  })

  it('claims due endpoints with their events in one statement and records their attempts together', async () => {
    // A dispatcher of its own over a handle that counts its statements; the server's stands aside.
    server.services.webhooks.stop()
    const { db, statements } = countingStatements(server.services.db)
    const dispatcher = new WebhookDispatcher(db, server.services.logger, {
      allowHttp: true,
      allowPrivate: true,
      encryptionKey: server.services.config.keyEncryptionKey,
      retentionDays: 30,
      now: () => clock,
    })
    const receivers = Array.from({ length: 5 }, () => new WebhookReceiver())
    const bank = await createTestClient(server, { funded: false })
    const hooks = []
    for (const receiver of receivers) hooks.push(await endpoint(server, bank, await receiver.start()))
    await append(server, bank.tenantId, Array(20).fill('balance'))
    const received = () => receivers.reduce((n, r) => n + r.received.length, 0)
    try {
      dispatcher.start()
      await eventually(async () => (received() >= 100 ? true : undefined), 20_000)
      await dispatcher.idle()
      for (const receiver of receivers) expect(receiver.received.map((r) => r.sequence)).toEqual(Array.from({ length: 20 }, (_, k) => k + 1))
      for (const hook of hooks) expect(await cursorOf(hook.uid)).toBe(20)
      const claims = statements.filter((s) => s.startsWith('with due as')).length
      const records = statements.filter((s) => s.startsWith('with input as')).length
      // One statement per delivery and three per endpoint's run were the cost before; 100
      // deliveries of 5 endpoints now share statements: one claim per look, one record per round.
      expect(records).toBeLessThan(50)
      expect(statements.length).toBeLessThan(60)
      expect(claims).toBeGreaterThanOrEqual(1)
      // Besides, only the purge and the periodic look's check that some endpoint exists.
      const others = ['DeleteQueryNode', 'SelectQueryNode']
      expect(statements.filter((s) => !others.includes(s) && !s.startsWith('with due as') && !s.startsWith('with input as'))).toEqual([])
    } finally {
      await dispatcher.close()
      server.services.webhooks.start()
      for (const receiver of receivers) await receiver.stop()
    }
  })
})

describe('wake-ups on commits', () => {
  it('cost no statement while no endpoint exists anywhere, and look again once one does', async () => {
    // A database of its own: no endpoint of another test.
    const alone = await startTestServer(ALLOW)
    const { db, statements } = countingStatements(alone.services.db)
    const dispatcher = new WebhookDispatcher(db, alone.services.logger, {
      allowHttp: true,
      allowPrivate: true,
      encryptionKey: alone.services.config.keyEncryptionKey,
      retentionDays: 30,
      pollMs: 20,
    })
    const claims = () => statements.filter((s) => s.startsWith('with due as')).length
    const receiver = new WebhookReceiver()
    try {
      dispatcher.start()
      // The periodic look found no endpoint (its check ran, and no claim followed it).
      await eventually(async () => (statements.filter((s) => s === 'SelectQueryNode').length >= 2 ? true : undefined), 10_000)
      await dispatcher.idle()
      const before = claims()
      // Each matching pass commits events: without endpoints, no look (one statement each before).
      for (let i = 0; i < 100; i++) dispatcher.eventsCommitted()
      await dispatcher.idle()
      expect(claims()).toBe(before)
      // An endpoint made elsewhere (the server's own API, not this dispatcher): found at the next periodic look.
      const bank = await createTestClient(alone, { funded: false })
      await endpoint(alone, bank, await receiver.start())
      await eventually(async () => {
        dispatcher.eventsCommitted()
        await dispatcher.idle()
        return claims() > before ? true : undefined
      }, 10_000)
    } finally {
      await dispatcher.close()
      await receiver.stop()
      await alone.close()
    }
  })
})

describe('safety', () => {
  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(server, { funded: false })
    const hook = await endpoint(server, bank, url)
    receiver.status = () => 302
    await deposits(server, bank.tenantId, 1)
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined), 10_000)
    await server.services.webhooks.idle()
    expect((await deliveries(hook.uid, bank.token)).items).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 302, error: 'Answered 302: redirects are not followed' }),
    ])
    expect(receiver.received).toHaveLength(1)
    await receiver.stop()
  })

  it('refuses plain http and private addresses at connect time, names resolved included', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const strict = new WebhookSender({ allowHttp: false, allowPrivate: false, timeoutMs: 10_000 })
    expect(await strict.send(url, {}, '{}')).toMatchObject({ status: null, error: 'Only https URLs are delivered to' })
    const noPrivate = new WebhookSender({ allowHttp: true, allowPrivate: false, timeoutMs: 10_000 })
    expect(await noPrivate.send(url, {}, '{}')).toMatchObject({ status: null, error: '127.0.0.1 is a private or reserved address' })
    // A name is checked on what it resolves to when the connection is made (DNS rebinding).
    const name = hostname()
    const resolved = await lookup(name, { all: true }).catch(() => [])
    if (resolved.length > 0 && resolved.every((a) => isRefusedAddress(a.address))) {
      const port = new URL(url).port
      const result = await noPrivate.send(`http://${name}:${port}/hook`, {}, '{}')
      expect(result.status).toBeNull()
      expect(result.error).toMatch(/resolves to .*, a private or reserved address/)
    }
    const refused = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (error) => resolve(error)))
    expect(refused?.message).toMatch(/^localhost resolves to .*, a private or reserved address$/)
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '::ffff:10.0.0.1', '0.0.0.0', '::', '224.0.0.1', '192.168.1.1'])
      expect(isRefusedAddress(address)).toBe(true)
    expect(isRefusedAddress('93.184.216.34')).toBe(false)
    expect(receiver.received).toHaveLength(0)
    strict.close()
    noPrivate.close()
    await receiver.stop()
  })
})

// Several processes on one PostgreSQL: one delivers an endpoint at a time, and a killed one's
// endpoint is resumed from its cursor by the next (docs/webhooks.md, "Delivery").
describe.skipIf(!onPostgres)('processes on one PostgreSQL', () => {
  let a: TestServer
  let b: ServerProcess | undefined
  const env = () => ({ ...ALLOW, DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
  beforeAll(async () => {
    a = await startTestServer(ALLOW)
    await seedDemoMarket(a.services.db)
    b = await startServerProcess(env())
  }, 180_000)
  afterAll(async () => {
    await b?.stop('SIGKILL')
    await a?.close()
  })

  it('never delivers one event twice from two instances', async () => {
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(a, { funded: false })
    await endpoint(a, bank, url)
    await deposits(a, bank.tenantId, 40)
    await eventually(async () => (receiver.received.length >= 40 ? true : undefined), 30_000)
    await new Promise((r) => setTimeout(r, 500))
    expect(receiver.received.map((r) => r.sequence)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    await receiver.stop()
  }, 60_000)

  it('resumes from the cursor after SIGKILL: nothing lost, duplicates only with the same webhook-id', async () => {
    // Only the spawned process delivers from here.
    await a.services.webhooks.close()
    const receiver = new WebhookReceiver()
    const url = await receiver.start()
    const bank = await createTestClient(a, { funded: false })
    const hook = await endpoint(a, bank, url)
    await deposits(a, bank.tenantId, 30)
    await eventually(async () => (receiver.received.length >= 10 ? true : undefined), 30_000, 5)
    await b!.stop('SIGKILL')
    const atKill = receiver.received.length
    expect(atKill).toBeLessThan(30)
    b = await startServerProcess(env())
    await eventually(async () => (new Set(receiver.received.map((r) => r.id)).size >= 30 ? true : undefined), 60_000)
    const firsts = [...new Map(receiver.received.map((r) => [r.id, r.sequence])).values()]
    expect(firsts).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    // Any event received twice came with the same id and bytes, each time signed.
    const byId = new Map<string, string>()
    for (const r of receiver.received) {
      expect(byId.get(r.id) ?? r.body).toBe(r.body)
      byId.set(r.id, r.body)
      expect(signedBy(hook.secret, r)).toBe(true)
    }
    expect(receiver.received.length - 30).toBeLessThanOrEqual(1)
    await receiver.stop()
  }, 150_000)
})
