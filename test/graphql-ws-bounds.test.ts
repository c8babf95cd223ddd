import type { Socket } from 'node:net'

import { getIntrospectionQuery } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'

import { BEHIND_REASON } from '../src/app/graphql-ws.ts'
import { MAX_BUFFERED_BYTES } from '../src/modules/exchange/events/event-streams.ts'
import { createTestClient } from './helpers/auth.ts'
import { eventually } from './helpers/eventually.ts'
import { type GraphQLSocket, openGraphQLSocket } from './helpers/graphql-socket.ts'
import { LogSink } from './helpers/log-sink.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// An answer of ~100 KB: a client sending many and reading none makes the server hold them.
const INTROSPECTION = getIntrospectionQuery()
// Generous: the flood below stops once the server has cut the socket or overflowed the bound.
const WITHIN_MS = 30_000
const MAX_QUERIES = 400

let patient: TestServer
let hasty: TestServer
const sink = new LogSink()
const sockets: GraphQLSocket[] = []
// What one answer weighs on the wire (measured on a reading socket): the bound holds 1 MiB and one more.
let answerBytes = 0

beforeAll(async () => {
  // A minute to take the close once it has resumed reading, whatever the host's load.
  patient = await startTestServer({ LOG_LEVEL: 'info', STREAM_END_GRACE_SECONDS: '60' }, undefined, { logDestination: sink })
  // A client that never reads again is cut after 1 s, not the 5 s default (same database: cheaper).
  hasty = await startTestServer({ STREAM_END_GRACE_SECONDS: '1' }, patient.database)
  const reader = await openGraphQLSocket(patient.url)
  sockets.push(reader)
  await reader.init(`Bearer ${(await createTestClient(patient)).token}`)
  reader.subscribe('i', INTROSPECTION)
  const [answer] = await reader.operation('i')
  expect(answer!.payload.data.__schema).toBeDefined()
  answerBytes = Buffer.byteLength(JSON.stringify(answer))
  reader.close()
})
afterAll(async () => {
  for (const socket of sockets) socket.close()
  await hasty?.stop()
  await patient?.close()
})

/** A connected socket whose client has stopped reading (its TCP socket paused), with the server's side of it. */
async function stalled(target: TestServer) {
  const token = (await createTestClient(target)).token
  const accepted: Socket[] = []
  const onConnection = (s: Socket) => accepted.push(s)
  target.running.server.on('connection', onConnection)
  const socket = await openGraphQLSocket(target.url)
  target.running.server.off('connection', onConnection)
  sockets.push(socket)
  await socket.init(`Bearer ${token}`)
  const clientSide = (socket.socket as unknown as { _socket: Socket })._socket
  const serverSide = accepted.find((s) => s.remotePort === clientSide.localPort)!
  clientSide.pause()
  return { socket, clientSide, serverSide }
}

/**
 * Sends introspections, a batch per poll, until `done` says the server acted, or it holds more
 * unsent than the bound allows (what happened before the bound: 6.7 MB per socket, 100 answers).
 */
async function flood(socket: GraphQLSocket, serverSide: Socket, done: () => boolean) {
  let sent = 0
  const outcome = await eventually(async () => {
    if (done()) return 'cut'
    if (serverSide.writableLength > MAX_BUFFERED_BYTES + 2 * answerBytes) return `${serverSide.writableLength} bytes unsent`
    for (let i = 0; i < 20 && sent < MAX_QUERIES; i++) socket.subscribe(`q${sent++}`, INTROSPECTION)
    return undefined
  }, WITHIN_MS)
  return { outcome, sent }
}

describe('a WebSocket client that stops reading answers (queries, not only subscriptions)', () => {
  it('is closed 1013 once over 1 MiB waits for it; resuming, it reads what was sent, then the close', async () => {
    const { socket, clientSide, serverSide } = await stalled(patient)
    const serverClosed = new Promise<void>((resolve) => serverSide.once('close', () => resolve()))
    const behind = () => sink.lines().find((l) => l.msg === 'graphql websocket behind')
    const { outcome, sent } = await flood(socket, serverSide, () => behind() !== undefined)
    expect(outcome).toBe('cut')
    expect(behind()!.unsent).toBeGreaterThan(MAX_BUFFERED_BYTES)
    // Nothing more is queued for it: what waits stays within the bound and one answer.
    expect(serverSide.writableLength).toBeLessThanOrEqual(MAX_BUFFERED_BYTES + 2 * answerBytes)
    clientSide.resume()
    expect(await socket.closed).toEqual({ code: 1013, reason: BEHIND_REASON })
    await serverClosed
    // Whole answers, in full, then the close; the rest were dropped, not sent.
    const answers = socket.received.filter((m) => m.type === 'next')
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.length).toBeLessThan(sent)
    for (const answer of answers) expect(Object.keys(answer.payload.data.__schema)).toContain('types')
  }, 60_000)

  it('is cut once the grace has passed if it never reads again; its buffer never grows past the bound', async () => {
    const { socket, clientSide, serverSide } = await stalled(hasty)
    const { outcome } = await flood(socket, serverSide, () => serverSide.destroyed)
    expect(outcome).toBe('cut')
    clientSide.resume()
    // Cut, not closed: the close frame never reached it.
    expect((await socket.closed).code).toBe(1006)
    expect(socket.socket.readyState).toBe(WebSocket.CLOSED)
  }, 60_000)
})
