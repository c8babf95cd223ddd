import { connect, type Socket } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { eventually } from './helpers/eventually.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const IDLE_SECONDS = 1
const CAP = 4

let server: TestServer

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** `promise`, or a failure after `ms` (generous: what is measured is far shorter). */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what}: not within ${ms} ms`)))])

/** A raw keep-alive connection: requests one at a time, and when (and whether) the server closed it. */
interface Connection {
  socket: Socket
  /** Resolves with the time the connection closed, and whether any byte came before. */
  closed: Promise<{ at: number; received: number }>
  get: (path: string) => Promise<number>
  /** The status of every answer received so far, in order. */
  statuses: number[]
}

async function open(server: TestServer): Promise<Connection> {
  const { hostname, port } = new URL(server.url)
  const socket = connect(Number(port), hostname)
  socket.on('error', () => {})
  let buffer = Buffer.alloc(0)
  let received = 0
  let waiting: ((status: number) => void) | undefined
  const statuses: number[] = []
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length
    buffer = Buffer.concat([buffer, chunk])
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd < 0) return
    const head = buffer.subarray(0, headEnd).toString('latin1')
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
    if (buffer.length < headEnd + 4 + length) return
    buffer = buffer.subarray(headEnd + 4 + length)
    statuses.push(Number(head.split(' ')[1]))
    const resolve = waiting
    waiting = undefined
    resolve?.(Number(head.split(' ')[1]))
  })
  const closed = new Promise<{ at: number; received: number }>((resolve) => socket.once('close', () => resolve({ at: Date.now(), received })))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  return {
    socket,
    closed,
    statuses,
    get: (path) =>
      new Promise<number>((resolve, reject) => {
        waiting = resolve
        void closed.then(() => reject(new Error('connection closed')))
        socket.write(`GET ${path} HTTP/1.1\r\nHost: exchange.test\r\n\r\n`)
      }),
  }
}

describe('connections idle before their first request (CONNECTION_IDLE_SECONDS)', () => {
  beforeAll(async () => {
    server = await startTestServer({ CONNECTION_IDLE_SECONDS: String(IDLE_SECONDS) })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('closes one that sends nothing, or only part of a request head, after the configured time', async () => {
    const started = Date.now()
    const silent = await open(server)
    const partial = await open(server)
    partial.socket.write('GET /healthz HT')
    // Long before the 66 s a request head is otherwise given.
    const [a, b] = await within(Promise.all([silent.closed, partial.closed]), 20_000, 'closed')
    for (const closed of [a, b]) {
      expect(closed.received).toBe(0)
      // Not before the configured time.
      expect(closed.at - started).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 50)
    }
  })

  it('keeps a connection that sent a request open for its next (keep-alive)', async () => {
    const connection = await open(server)
    expect(await connection.get('/healthz')).toBe(200)
    // A silent connection opened after this one is closed by its idle timer: by then this one's,
    // started earlier, would have fired too had the request not cleared it.
    const witness = await open(server)
    await within(witness.closed, 20_000, 'witness closed')
    expect(await connection.get('/healthz')).toBe(200)
    connection.socket.destroy()
  })

  it("gives the next request's head the configured time too, not Node's minute, however it trickles", async () => {
    const connection = await open(server)
    expect(await connection.get('/healthz')).toBe(200)
    // One byte of a head that never ends every 100 ms: each byte is activity, so only a bound on
    // the head as a whole ends it.
    const head = `GET /healthz HTTP/1.1\r\nHost: exchange.test\r\nX-Trickle: ${'a'.repeat(10_000)}`
    const started = Date.now()
    let sent = 0
    const trickle = setInterval(() => connection.socket.write(head[sent++]!), 100)
    try {
      // Node's default is 60 s, this server's was 66 s; the bound is 10× the configured time.
      const closed = await within(connection.closed, IDLE_SECONDS * 10_000, 'closed')
      expect(closed.at - started).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 50)
      expect(connection.statuses).toEqual([200, 408])
    } finally {
      clearInterval(trickle)
      connection.socket.destroy()
    }
  })
})

describe('closing the server', () => {
  it('ends connections that sent no request at once, not after their idle time', async () => {
    // Idle connections are given long: what must end them is the close.
    const closing = await startTestServer({ CONNECTION_IDLE_SECONDS: '600' })
    try {
      const silent = await open(closing)
      const partial = await open(closing)
      partial.socket.write('GET /healthz HT')
      const accepted = () =>
        new Promise<number>((resolve, reject) => closing.running.server.getConnections((error, count) => (error ? reject(error) : resolve(count))))
      await eventually(async () => ((await accepted()) === 2 ? true : undefined), 20_000)
      // The listener's own close: half its 10 s drain limit (src/http/listen.ts), which would
      // otherwise be what cuts them.
      await within(closing.running.close(), 5_000, 'server closed')
      for (const connection of [silent, partial]) expect((await within(connection.closed, 5_000, 'connection closed')).received).toBe(0)
    } finally {
      await closing.close()
    }
  })
})

describe('connections per address (MAX_CONNECTIONS_PER_ADDRESS)', () => {
  // Idle connections are given long here: what closes the extra one is the cap.
  const idleSeconds = 120
  beforeAll(async () => {
    server = await startTestServer({ CONNECTION_IDLE_SECONDS: String(idleSeconds), MAX_CONNECTIONS_PER_ADDRESS: String(CAP) })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('closes at once a connection beyond the cap; the others work on, and a new one opens once one has closed', async () => {
    const held: Connection[] = []
    for (let i = 0; i < CAP; i++) {
      const connection = await open(server)
      expect(await connection.get('/healthz')).toBe(200)
      held.push(connection)
    }
    const opened = Date.now()
    const extra = await open(server)
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: exchange.test\r\n\r\n')
    const closed = await within(extra.closed, 20_000, 'closed')
    // Closed without an answer, long before the idle time would have closed it.
    expect(closed.received).toBe(0)
    expect(closed.at - opened).toBeLessThan((idleSeconds * 1000) / 4)
    expect(await Promise.all(held.map((connection) => connection.get('/healthz')))).toEqual(held.map(() => 200))
    held.pop()!.socket.destroy()
    // Once the server has seen that one close, a new connection is served.
    let status: number | undefined
    for (let attempt = 0; attempt < 50 && status === undefined; attempt++) {
      const next = await open(server)
      status = await next.get('/healthz').catch(() => undefined)
      if (status === undefined) await sleep(50)
      else held.push(next)
    }
    expect(status).toBe(200)
    for (const connection of held) connection.socket.destroy()
    // And once the server has seen them close, an ordinary request is answered.
    const answered = await eventually(() => server.request('GET', '/healthz').catch(() => undefined), 5000)
    expect(answered.status).toBe(200)
  })
})
