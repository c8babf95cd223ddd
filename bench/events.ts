/**
 * The events scenario: many open tenant streams (SSE) on one service process while orders are placed
 * at a steady rate. Measures, for every order, the time from its 201 answer to the arrival of its
 * `order.created` on each of its tenant's streams; counts what never arrived; and estimates memory
 * per idle stream from the service's RSS.
 *
 * Streams and orders use plain node:http: this process shares the machine with the service, and a
 * heavier client would take CPU from what is measured.
 */
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'

import pg from 'pg'

export const STREAMS_PER_CLIENT = 10
export const ORDERS_PER_SECOND = 1000
const DELIVERY_GOAL_P99_MS = 100
// How long deliveries may still arrive once placing has stopped.
const DRAIN_MS = 5000
// Streams opened at once: each opening costs the service an authentication and a read.
const OPEN_CONCURRENCY = 50
const ORDER_SOCKETS = 64
const ORDER_TIMEOUT_MS = 10_000
const PACE_MS = 10
// Quiet time before each RSS reading, so what was just allocated has settled.
const SETTLE_MS = 1000
const STREAMS_IDLE_MS = 2000

export interface Credentials {
  client_id: string
  client_secret: string
}

export interface EventsOptions {
  url: string
  /** The service process, whose RSS is read. */
  pid: number
  clients: Credentials[]
  durationSeconds: number
  warmupSeconds: number
}

export interface EventsResult {
  clients: number
  streams: number
  targetOrdersPerSecond: number
  durationSeconds: number
  ordersSent: number
  ordersAnswered201: number
  non201: number
  requestErrors: number
  achievedOrdersPerSecond: number
  orderAnswerP50Ms: number
  orderAnswerP99Ms: number
  expectedDeliveries: number
  deliveries: number
  lost: number
  duplicates: number
  /** Deliveries that arrived before the order's own answer was read (their latency is negative). */
  beforeAnswer: number
  deliveryP50Ms: number
  deliveryP99Ms: number
  deliveryMaxMs: number
  /** Messages of every type received on all streams while orders were placed. */
  messagesPerSecond: number
  sequenceGaps: number
  streamsEndedEarly: number
  rssBeforeKiB: number
  rssAfterKiB: number
  /** (RSS with the streams open and idle − RSS before) / streams: RSS-based, so the heap's slack is in it. */
  memoryPerIdleStreamKiB: number
  clientLoopDelayP99Ms: number
  /** CPU used while orders were placed, in % of one core: the two share the machine. */
  serviceCpuPercent: number
  clientCpuPercent: number
  goal: string
  goalMet: boolean
}

interface Stream {
  client: number
  request: http.ClientRequest
  /** An incomplete message carried over to the next chunk. */
  pending: string
  lastId: number | undefined
  /** Order uid → when its `order.created` arrived. */
  received: Map<string, number>
}

interface PlacedOrder {
  client: number
  uid: string
  answeredAt: number
  measured: boolean
}

// The order record's first member, in the event's data.
const ORDER_UID_PREFIX = '"order":{"uid":"'

/** VmRSS of a process, in KiB. */
function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1])
}

/** CPU time of all of a process's threads (GC and libuv workers too), in ms. */
export function cpuMs(pid: number): number {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return ns / 1e6
}

/** Per database: each backend's CPU as last read, and what backends since gone (or whose pid was reused) had spent. */
const backendCpu = new Map<string, { last: Map<number, number>; gone: number }>()

/**
 * CPU time (ms) of the PostgreSQL backends connected to the service's database, read from /proc
 * (the server runs on this host). 0 for the embedded database: it runs in the service's process.
 * Never decreases: a backend that exits (the pool closes idle connections) keeps what it was last
 * read at, so a run's difference undercounts at most its last moments instead of going negative.
 */
export async function databaseCpuMs(databaseUrl: string | undefined): Promise<number> {
  if (!databaseUrl) return 0
  let seen = backendCpu.get(databaseUrl)
  if (!seen) backendCpu.set(databaseUrl, (seen = { last: new Map(), gone: 0 }))
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
    for (const { pid } of rows) {
      try {
        const ms = cpuMs(pid)
        const before = seen.last.get(pid) ?? 0
        // Less than before: the pid now names another backend.
        if (ms < before) seen.gone += before
        seen.last.set(pid, ms)
      } catch {
        // The backend ended between the listing and the read.
      }
    }
    let ms = seen.gone
    for (const value of seen.last.values()) ms += value
    return ms
  } finally {
    await client.end()
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number) => (sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!)

const round = (n: number, places = 1) => Number(n.toFixed(places))

async function login(url: string, credentials: Credentials): Promise<string> {
  const res = await fetch(`${url}/api/sso/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`login → ${res.status}: ${text.slice(0, 300)}`)
  return (JSON.parse(text) as { tokens: { access: string } }).tokens.access
}

/** Runs `task` over `items`, at most `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      await task(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

export async function measureEvents(options: EventsOptions): Promise<EventsResult> {
  const { url, pid, clients } = options
  const target = new URL(url)
  const tokens: string[] = new Array<string>(clients.length)
  await eachLimited(clients, 10, async (credentials, i) => {
    tokens[i] = await login(url, credentials)
  })

  const streams: Stream[] = []
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity })
  const orderAgent = new http.Agent({ keepAlive: true, maxSockets: ORDER_SOCKETS })
  let closing = false
  let sequenceGaps = 0
  let streamsEndedEarly = 0
  let messages = 0
  let firstReceipts = 0
  let duplicates = 0

  const onMessage = (stream: Stream, text: string, start: number, end: number, at: number) => {
    // `: ping` and other comments.
    if (text[start] === ':') return
    let line = start
    let id: number | undefined
    if (text.startsWith('id: ', line)) {
      const lineEnd = text.indexOf('\n', line)
      id = Number(text.slice(line + 4, lineEnd))
      line = lineEnd + 1
    }
    if (!text.startsWith('event: ', line)) return
    const eventEnd = text.indexOf('\n', line)
    const event = text.slice(line + 7, eventEnd)
    messages++
    if (id !== undefined) {
      if (stream.lastId !== undefined && id !== stream.lastId + 1) sequenceGaps++
      stream.lastId = id
    }
    if (event === 'order.created') {
      const prefix = text.indexOf(ORDER_UID_PREFIX, eventEnd)
      if (prefix < 0 || prefix > end) return
      const uidStart = prefix + ORDER_UID_PREFIX.length
      const uid = text.slice(uidStart, text.indexOf('"', uidStart))
      if (stream.received.has(uid)) duplicates++
      else {
        stream.received.set(uid, at)
        firstReceipts++
      }
    }
  }

  const open = (client: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request({
        agent: streamAgent,
        hostname: target.hostname,
        port: target.port,
        path: '/api/exchange/v1/events',
        headers: { authorization: `Bearer ${tokens[client]!}`, accept: 'text/event-stream' },
      })
      const stream: Stream = { client, request, pending: '', lastId: undefined, received: new Map() }
      // Once the response has come, its 'close' counts an early end (`resync`, `token_expired` or a cut).
      request.on('error', reject)
      request.once('response', (res) => {
        res.on('error', () => {})
        if (res.statusCode !== 200) {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (d: string) => (body += d))
          res.once('end', () => reject(new Error(`GET /api/exchange/v1/events → ${res.statusCode}: ${body.slice(0, 300)}`)))
          return
        }
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          // One time for the whole chunk: every message in it arrived together.
          const at = performance.now()
          const text = stream.pending + chunk
          let start = 0
          for (let end = text.indexOf('\n\n', start); end >= 0; end = text.indexOf('\n\n', start)) {
            onMessage(stream, text, start, end, at)
            start = end + 2
          }
          stream.pending = start === text.length ? '' : text.slice(start)
        })
        res.once('close', () => {
          if (!closing) streamsEndedEarly++
        })
        streams.push(stream)
        resolve()
      })
      request.end()
    })

  const orders: PlacedOrder[] = []
  const answerTimes: number[] = []
  let sent = 0
  let inFlight = 0
  let non201 = 0
  let requestErrors = 0
  let onIdle: (() => void) | undefined
  // Even clients buy and odd ones sell, at one price: every order crosses another tenant's.
  const bodies = (['buy', 'sell'] as const).map((side) => JSON.stringify({ symbol: 'ETH-USDT', side, type: 'limit', quantity: '0.01', price: '3000.00' }))

  const place = (measured: boolean) => {
    const client = sent++ % clients.length
    const body = bodies[client % 2]!
    const sentAt = performance.now()
    inFlight++
    const done = () => {
      if (--inFlight === 0) onIdle?.()
    }
    const request = http.request(
      {
        agent: orderAgent,
        hostname: target.hostname,
        port: target.port,
        method: 'POST',
        path: '/api/exchange/v1/orders',
        headers: { authorization: `Bearer ${tokens[client]!}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: ORDER_TIMEOUT_MS,
      },
      (res) => {
        // The request's 'error' counts the failure.
        res.on('error', () => {})
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.once('end', () => {
          const answeredAt = performance.now()
          if (res.statusCode === 201) {
            orders.push({ client, uid: (JSON.parse(text) as { uid: string }).uid, answeredAt, measured })
            if (measured) answerTimes.push(answeredAt - sentAt)
          } else non201++
          done()
        })
      },
    )
    request.once('timeout', () => request.destroy(new Error('order request timed out')))
    request.on('error', () => {
      requestErrors++
      done()
    })
    request.end(body)
  }

  /** Places orders at ORDERS_PER_SECOND for `seconds`, then waits for every answer. */
  const placeFor = async (seconds: number, measured: boolean) => {
    const total = Math.round(ORDERS_PER_SECOND * seconds)
    const start = performance.now()
    let placed = 0
    await new Promise<void>((resolve) => {
      // Sends what is due by the clock, not a fixed count per tick: a late timer is caught up, so the rate holds.
      const pace = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * ORDERS_PER_SECOND))
        for (; placed < due; placed++) place(measured)
        if (placed === total) {
          clearInterval(pace)
          resolve()
        }
      }, PACE_MS)
    })
    if (inFlight > 0) await new Promise<void>((resolve) => (onIdle = resolve))
    onIdle = undefined
    return { placed, seconds: (performance.now() - start) / 1000 }
  }

  /** Waits until every answered order's `order.created` reached each of its tenant's streams, or DRAIN_MS passed. */
  const drain = async () => {
    const deadline = performance.now() + DRAIN_MS
    while (firstReceipts < orders.length * STREAMS_PER_CLIENT && performance.now() < deadline) await sleep(20)
  }

  try {
    await sleep(SETTLE_MS)
    const rssBeforeKiB = rssKiB(pid)
    await eachLimited(
      Array.from({ length: clients.length * STREAMS_PER_CLIENT }, (_, i) => Math.floor(i / STREAMS_PER_CLIENT)),
      OPEN_CONCURRENCY,
      open,
    )
    await sleep(STREAMS_IDLE_MS)
    const rssAfterKiB = rssKiB(pid)

    if (options.warmupSeconds > 0) {
      await placeFor(options.warmupSeconds, false)
      await drain()
    }
    const messagesBefore = messages
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const serviceCpuBefore = cpuMs(pid)
    const clientCpuBefore = process.cpuUsage()
    const placing = await placeFor(options.durationSeconds, true)
    const clientCpu = process.cpuUsage(clientCpuBefore)
    const serviceCpu = cpuMs(pid) - serviceCpuBefore
    loopDelay.disable()
    const cpuPercent = (ms: number) => Math.round(ms / placing.seconds / 10)
    const messagesDuring = messages - messagesBefore
    await drain()

    const byClient = new Map<number, Stream[]>()
    for (const stream of streams) byClient.set(stream.client, [...(byClient.get(stream.client) ?? []), stream])
    const measured = orders.filter((order) => order.measured)
    const latencies = new Float64Array(measured.length * STREAMS_PER_CLIENT)
    let deliveries = 0
    let beforeAnswer = 0
    for (const order of measured) {
      for (const stream of byClient.get(order.client) ?? []) {
        const at = stream.received.get(order.uid)
        if (at === undefined) continue
        const latency = at - order.answeredAt
        if (latency < 0) beforeAnswer++
        latencies[deliveries++] = latency
      }
    }
    const sorted = latencies.subarray(0, deliveries).sort()
    const answers = Float64Array.from(answerTimes).sort()
    const expectedDeliveries = measured.length * STREAMS_PER_CLIENT
    const lost = expectedDeliveries - deliveries
    const deliveryP99Ms = round(percentile(sorted, 0.99))
    return {
      clients: clients.length,
      streams: streams.length,
      targetOrdersPerSecond: ORDERS_PER_SECOND,
      durationSeconds: options.durationSeconds,
      ordersSent: placing.placed,
      ordersAnswered201: measured.length,
      non201,
      requestErrors,
      achievedOrdersPerSecond: round(measured.length / placing.seconds),
      orderAnswerP50Ms: round(percentile(answers, 0.5)),
      orderAnswerP99Ms: round(percentile(answers, 0.99)),
      expectedDeliveries,
      deliveries,
      lost,
      duplicates,
      beforeAnswer,
      deliveryP50Ms: round(percentile(sorted, 0.5)),
      deliveryP99Ms,
      deliveryMaxMs: round(sorted.length === 0 ? NaN : sorted[sorted.length - 1]!),
      messagesPerSecond: Math.round(messagesDuring / placing.seconds),
      sequenceGaps,
      streamsEndedEarly,
      rssBeforeKiB,
      rssAfterKiB,
      memoryPerIdleStreamKiB: round((rssAfterKiB - rssBeforeKiB) / streams.length),
      clientLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
      serviceCpuPercent: cpuPercent(serviceCpu),
      clientCpuPercent: cpuPercent((clientCpu.user + clientCpu.system) / 1000),
      goal: `delivery p99 ≤ ${DELIVERY_GOAL_P99_MS} ms, 0 lost`,
      goalMet: deliveryP99Ms <= DELIVERY_GOAL_P99_MS && lost === 0 && deliveries > 0,
    }
  } finally {
    closing = true
    for (const stream of streams) stream.request.destroy()
    streamAgent.destroy()
    orderAgent.destroy()
  }
}

/** The report's section for the scenario, printed after the table. */
export function formatEvents(r: EventsResult): string {
  return (
    `\nEvents: ${r.streams} SSE tenant streams open (${r.clients} clients × ${STREAMS_PER_CLIENT}) on one process; ` +
    `ETH-USDT crossing orders at ${r.targetOrdersPerSecond}/s for ${r.durationSeconds}s, round-robin over the clients.\n` +
    `- orders: ${r.ordersAnswered201} of ${r.ordersSent} answered 201 (${r.achievedOrdersPerSecond}/s achieved), ${r.non201} non-201, ` +
    `${r.requestErrors} failed; answer p50 ${r.orderAnswerP50Ms} ms, p99 ${r.orderAnswerP99Ms} ms (from sending, with the wait for one of ${ORDER_SOCKETS} sockets)\n` +
    `- order.created delivery, 201 answer → receipt on each of the tenant's streams: p50 ${r.deliveryP50Ms} ms, p99 ${r.deliveryP99Ms} ms, ` +
    `max ${r.deliveryMaxMs} ms (${r.beforeAnswer} of ${r.deliveries} arrived before the answer was read: negative, as measured)\n` +
    `- lost ${r.lost} of ${r.expectedDeliveries}, duplicates ${r.duplicates}, sequence gaps ${r.sequenceGaps}, streams ended early ${r.streamsEndedEarly}; ` +
    `${r.messagesPerSecond} messages/s received (all types)\n` +
    `- memory per idle stream: ${r.memoryPerIdleStreamKiB} KiB (service RSS ${r.rssBeforeKiB} → ${r.rssAfterKiB} KiB; RSS-based, no GC forced)\n` +
    `- while placing: service CPU ${r.serviceCpuPercent}% of a core, this client's ${r.clientCpuPercent}%; ` +
    `this client's event-loop delay p99 ${r.clientLoopDelayP99Ms} ms (it delays the times taken above too)\n` +
    `- goal ${r.goal}: ${r.goalMet ? 'met' : 'not met'}\n`
  )
}
