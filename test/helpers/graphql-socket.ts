import { WebSocket } from 'ws'

/** A message of the graphql-transport-ws protocol, as received. */
export interface SocketMessage {
  type: string
  id?: string
  payload?: any
}

/**
 * A raw `graphql-transport-ws` client for tests: every message and the close are kept, so tests
 * assert on exactly what the server sent, close code and reason included.
 */
export interface GraphQLSocket {
  socket: WebSocket
  received: SocketMessage[]
  /** Resolves with the close code and reason once the socket is closed (by either side). */
  closed: Promise<{ code: number; reason: string }>
  send: (message: object) => void
  /** `connection_init` with `authorization` (if given) in its payload; resolves on the ack, rejects on a close. */
  init: (authorization?: string) => Promise<void>
  /** Sends `subscribe` with this id and payload. */
  subscribe: (id: string, query: string, variables?: Record<string, unknown>, extra?: Record<string, unknown>) => void
  /** The first message (from `from` on) that `match` accepts, waiting for it. */
  waitFor: (match: (m: SocketMessage) => boolean, timeoutMs?: number) => Promise<SocketMessage>
  /** The messages of operation `id` up to and including its `complete` or `error`. */
  operation: (id: string, timeoutMs?: number) => Promise<SocketMessage[]>
  close: () => void
}

export async function openGraphQLSocket(baseUrl: string, protocol = 'graphql-transport-ws', path = '/graphql'): Promise<GraphQLSocket> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, protocol)
  const received: SocketMessage[] = []
  const waiters = new Set<() => void>()
  let closeInfo: { code: number; reason: string } | undefined
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      closeInfo = { code, reason: reason.toString() }
      resolve(closeInfo)
      for (const wake of waiters) wake()
    })
  })
  socket.on('error', () => {})
  socket.on('message', (data) => {
    received.push(JSON.parse(String(data)) as SocketMessage)
    for (const wake of waiters) wake()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
    socket.once('close', () => reject(new Error('closed before open')))
  })
  const waitFor = (match: (m: SocketMessage) => boolean, timeoutMs = 10_000) =>
    new Promise<SocketMessage>((resolve, reject) => {
      const check = () => {
        const found = received.find(match)
        if (found) return done(() => resolve(found))
        if (closeInfo) return done(() => reject(new Error(`closed ${closeInfo!.code} ${closeInfo!.reason}: ${JSON.stringify(received)}`)))
      }
      const timer = setTimeout(() => done(() => reject(new Error(`not received: ${JSON.stringify(received)}`))), timeoutMs)
      const done = (settle: () => void) => {
        clearTimeout(timer)
        waiters.delete(check)
        settle()
      }
      waiters.add(check)
      check()
    })
  const send = (message: object) => socket.send(JSON.stringify(message))
  return {
    socket,
    received,
    closed,
    send,
    init: async (authorization) => {
      send({ type: 'connection_init', payload: authorization === undefined ? {} : { authorization } })
      await waitFor((m) => m.type === 'connection_ack')
    },
    subscribe: (id, query, variables = {}, extra = {}) => send({ id, type: 'subscribe', payload: { query, variables, ...extra } }),
    waitFor,
    operation: async (id, timeoutMs) => {
      await waitFor((m) => m.id === id && (m.type === 'complete' || m.type === 'error'), timeoutMs)
      return received.filter((m) => m.id === id)
    },
    close: () => socket.close(),
  }
}
