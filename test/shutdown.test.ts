import { connect, type Socket } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestDatabase, type TestDatabase } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'

const redisTestUrl = process.env.REDIS_TEST_URL || undefined

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** The interim answer to `Expect: 100-continue`: the server has read the head and waits for the body. */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

/** Parses one HTTP/1.1 response (after any 100 Continue) read to the end of its connection. */
function parseResponse(raw: Buffer): RawResponse {
  const text = raw.toString('utf8').replace(CONTINUE, '')
  const headEnd = text.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = text.slice(0, headEnd).split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  let body = text.slice(headEnd + 4)
  if (headers['transfer-encoding'] === 'chunked') {
    let out = ''
    for (let rest = body; ;) {
      const lineEnd = rest.indexOf('\r\n')
      const size = parseInt(rest.slice(0, lineEnd), 16)
      if (!size) break
      out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
      rest = rest.slice(lineEnd + 2 + size + 2)
    }
    body = out
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body }
}

/**
 * A GraphQL request whose body arrives in two parts: in flight until `finish()` sends the rest.
 * `started` resolves once the server has read its head and waits for the body (its 100 Continue),
 * however long a busy host takes to get there.
 */
function slowRequest(port: number, query: string) {
  const body = Buffer.from(JSON.stringify({ query }))
  const socket: Socket = connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  let continued: () => void
  const started = new Promise<void>((resolve) => (continued = resolve))
  socket.on('data', (c) => {
    chunks.push(c)
    if (Buffer.concat(chunks).toString('latin1').startsWith(CONTINUE)) continued()
  })
  const response = new Promise<RawResponse>((resolve, reject) => {
    socket.on('end', () => resolve(parseResponse(Buffer.concat(chunks))))
    socket.on('error', reject)
  })
  socket.once('connect', () =>
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nExpect: 100-continue\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.subarray(0, 10)}`,
    ),
  )
  return { started, response, finish: () => socket.write(body.subarray(10)) }
}

const refusedConnection = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'))
  })

let database: TestDatabase
let server: ServerProcess
beforeAll(async () => {
  database = await createTestDatabase()
  server = await startServerProcess({ ...database.env, ...(redisTestUrl ? { REDIS_URL: redisTestUrl } : {}) })
})
afterAll(async () => {
  if (server?.child.exitCode === null) await server.stop('SIGKILL')
  await database?.drop()
})

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, completes every in-flight request, closes its pools and exits 0', { timeout: 60_000 }, async () => {
    const port = Number(new URL(server.url).port)
    // An idle keep-alive connection must not hold the process open.
    const idle = connect(port, '127.0.0.1')
    const idleClosed = new Promise<void>((resolve) => idle.on('close', () => resolve()))
    idle.on('error', () => {}).resume()
    await new Promise<void>((resolve) => idle.once('connect', () => idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', () => resolve())))

    const inFlight = Array.from({ length: 25 }, (_, i) => slowRequest(port, i % 2 ? '{ health { status database } }' : 'query Named { health { status } }'))
    // Every one read by the server and waiting for its body.
    await Promise.all(inFlight.map((r) => r.started))

    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)))
    server.child.kill('SIGTERM')
    // New connections are refused once the signal is handled; the process waits for the bodies.
    expect(await eventually(async () => ((await refusedConnection(port)) === 'ECONNREFUSED' ? true : undefined), 30_000, 50)).toBe(true)
    expect(server.child.exitCode).toBeNull()
    await idleClosed

    for (const r of inFlight) r.finish()
    const responses = await Promise.all(inFlight.map((r) => r.response))
    responses.forEach((res, i) => {
      expect(res.status).toBe(200)
      expect(res.headers.connection).toBe('close')
      expect(JSON.parse(res.body)).toEqual(i % 2 ? { data: { health: { status: 'ok', database: 'ok' } } } : { data: { health: { status: 'ok' } } })
    })

    // Exit 0: stopped by itself, not by its 20-s deadline (which exits 1); the idle connection,
    // which only the 10-s cut would otherwise have closed, was closed above before any body came.
    expect(await exited).toBe(0)
    const log = server.output()
    expect(log).toContain('shutting down: finishing in-flight requests')
    expect(log).toContain('"msg":"stopped"')
    expect(log).not.toContain('"level":50')
  })
})
