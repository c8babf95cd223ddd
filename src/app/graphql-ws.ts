import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

import { type DocumentNode, type ExecutionArgs, GraphQLError } from 'graphql'
import { CloseCode, type Context, makeServer, type SubscribePayload } from 'graphql-ws'
import type { YogaServerInstance } from 'graphql-yoga'
import { WebSocket, WebSocketServer } from 'ws'

import { MESSAGES, type Principal } from '../core/auth.ts'
import type { RequestContext, ResponseWatch, Services } from '../core/context.ts'
import { AppError, toAppError } from '../core/errors.ts'
import { toGraphQLError } from '../graphql/graphql-errors.ts'
import { GRAPHQL_LIMITS } from '../graphql/limits.ts'
import type { TrustedDocumentPolicy } from '../graphql/persisted-documents.ts'
import { duplicateKeys, firstOutOfBounds, isJsonText } from '../http/json-body.ts'
import { MAX_BODY_BYTES } from '../http/request-body.ts'
import { logFailure } from '../http/request-log.ts'
import { header, openRequestState } from '../http/request-state.ts'
import { MAX_BUFFERED_BYTES } from '../modules/exchange/events/event-streams.ts'
import { createRequestContext } from './request-context.ts'

/**
 * GraphQL over WebSocket (`graphql-transport-ws`, the `graphql-ws` library) on the GraphQL path:
 * the transport Apollo and urql use for subscriptions (docs/api.md, "GraphQL over WebSocket").
 * Operations run through Yoga's own pipeline (`yoga.getEnveloped`), so they get the same limits,
 * rate limits, error rendering and stream rules as over HTTP; what differs is the connection:
 * - the access token comes once, in `connection_init`'s `payload.authorization` (`Bearer …`), and
 *   is verified before the connection is acknowledged; without a valid one the socket closes with
 *   4403 and the 401 message as its reason;
 * - when that token expires, or its session is revoked or its client deactivated, every
 *   subscription ends with its UNAUTHENTICATED error as over SSE, then the socket closes with 4403
 *   and the message, so a client reconnects with a new token (graphql-ws clients retry on 4403);
 * - at shutdown subscriptions complete and the socket closes with 1001 (Going Away);
 * - a `connection_init` must come within CONNECTION_IDLE_SECONDS; a message may be 1 MiB, JSON
 *   bounded as request bodies are;
 * - a client that leaves over 1 MiB of answers (of any operation) unread is closed with 1013 and
 *   cut if it does not take them within STREAM_END_GRACE_SECONDS, as a stream is
 *   (docs/events.md, "Slow consumers"): what it has not read is not buffered without end.
 */

/** Operations (subscriptions and queries) one socket may have under way at once. */
export const MAX_OPERATIONS_PER_SOCKET = 100
// A socket told to close (shutdown, expiry) is cut if the client has not completed the close by then.
const CLOSE_GRACE_MS = 5000
// WebSocket close codes (RFC 6455 registry): the server stops; a rate limit, an unavailable service
// or a client too far behind (a temporary condition: graphql-ws clients reconnect after it).
const GOING_AWAY = 1001
const TRY_AGAIN_LATER = 1013
/** The close reason of a socket closed for answers it left unread (see the module comment). */
export const BEHIND_REASON = 'Over 1 MiB of answers unread'

export interface GraphQLWebSocket {
  /** Node's `upgrade` listener for the GraphQL path (other paths: 404). */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Refuses new sockets and closes open ones (1001), cutting those that do not close in time. */
  close: () => void
}

/** One socket's connection: the caller it authenticated and the operations it runs. */
interface Connection {
  request: IncomingMessage
  openedAt: bigint
  authorization: string | undefined
  principal: Principal | undefined
  /** Per operation id: what is called when the operation ends (its subscription's stream closes). */
  operations: Map<string, (() => void)[]>
  /** Set once the connection is to end (its credentials did, or the server stops): the socket closes when its operations have. */
  ending: { code: number; reason: string; refusal: AppError } | undefined
  release: () => void
}

/** What the socket needs of the GraphQL server: its envelop, per operation. */
type Yoga = Pick<YogaServerInstance<Record<string, unknown>, RequestContext>, 'getEnveloped'>
type Enveloped = ReturnType<Yoga['getEnveloped']>

export function graphqlWebSocket(services: Services, yoga: Yoga, policy: TrustedDocumentPolicy, path: string): GraphQLWebSocket {
  const { config, logger } = services
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES, handleProtocols: graphqlTransportWs })
  // Open sockets (for shutdown), and every socket's connection, which graphql-ws still asks for
  // while it winds down the operations of one that has closed.
  const connections = new Map<WebSocket, Connection>()
  const connectionOfSocket = new WeakMap<WebSocket, Connection>()
  // The execute/subscribe of each operation's own envelop, found again from its context.
  const envelopes = new WeakMap<object, Enveloped>()
  let closed = false

  const connectionOf = (ctx: Context<Record<string, unknown> | undefined, { socket: WebSocket }>) => connectionOfSocket.get(ctx.extra.socket)!

  const server = makeServer<Record<string, unknown> | undefined, { socket: WebSocket }>({
    connectionInitWaitTimeout: config.connectionIdleSeconds * 1000,
    onConnect: async (ctx) => {
      const { socket } = ctx.extra
      const connection = connections.get(socket)
      if (!connection) return false
      const authorization = ctx.connectionParams?.authorization
      connection.authorization = typeof authorization === 'string' ? authorization : undefined
      const state = stateOf(connection.request)
      // A DPoP-bound token proves its key once, here: htm GET, htu the socket's URL as http(s) (docs/dpop.md).
      const proof = ctx.connectionParams?.dpop
      const dpop = { proof: typeof proof === 'string' ? proof : null, method: 'GET', url: connection.request.url ?? '/' }
      try {
        connection.principal = await createRequestContext(services, state, connection.authorization ?? null, undefined, dpop).auth.principal()
      } catch (error) {
        const refusal = toAppError(error)
        if (refusal.status >= 500) logFailure(logger, refusal, state.id)
        socket.close(refusal.kind === 'unauthenticated' || refusal.kind === 'forbidden' ? CloseCode.Forbidden : TRY_AGAIN_LATER, closeReason(refusal.message))
        return false
      }
      // The client left while its token was checked: nothing to watch.
      if (!connections.has(socket)) return false
      watchCredentials(socket, connection, connection.principal)
      return true
    },
    onSubscribe: async (ctx, id, payload) => {
      const connection = connectionOf(ctx)
      if (connection.ending) return [toGraphQLError(connection.ending.refusal)]
      if (connection.operations.size >= MAX_OPERATIONS_PER_SOCKET) {
        return [toGraphQLError(new AppError('rate_limited', `Too many operations under way on this socket: at most ${MAX_OPERATIONS_PER_SOCKET}`))]
      }
      // Counted from here: operations being set up hold their place too.
      const listeners: (() => void)[] = []
      connection.operations.set(id, listeners)
      const prepared = await prepare(ctx.extra.socket, connection, payload, listeners)
      if (Array.isArray(prepared)) connection.operations.delete(id)
      return prepared
    },
    execute: (args) => envelopes.get(args.contextValue as object)!.execute(args as ExecutionArgs),
    subscribe: (args) => envelopes.get(args.contextValue as object)!.subscribe(args as ExecutionArgs),
    onNext: (_ctx, _id, _payload, args, result) => {
      // As Yoga's request log does over HTTP: server faults are logged with the operation's id.
      for (const error of result.errors ?? []) {
        if (error.originalError instanceof AppError) logFailure(logger, error.originalError, (args.contextValue as RequestContext).requestId)
      }
    },
    onComplete: (ctx, id) => {
      const connection = connectionOf(ctx)
      const listeners = connection.operations.get(id)
      connection.operations.delete(id)
      for (const listener of listeners?.splice(0) ?? []) listener()
      // After graphql-ws has sent this operation's `complete`, which it does once this returns.
      if (connection.ending && connection.operations.size === 0) setImmediate(() => closeSocket(ctx.extra.socket, connection))
    },
  })

  /** An operation's arguments, run through Yoga's envelop as an HTTP request's are, or the errors that refuse it. */
  async function prepare(socket: WebSocket, connection: Connection, payload: SubscribePayload, listeners: (() => void)[]) {
    const proven = connection.principal?.jkt === undefined ? undefined : { proof: null, method: 'GET', url: '/', proven: connection.principal.jkt }
    const requestContext = createRequestContext(
      services,
      stateOf(connection.request),
      connection.authorization ?? null,
      operationWatch(socket, listeners),
      proven,
    )
    let query: string
    try {
      query = await documentOf(payload, requestContext)
    } catch (error) {
      return [toGraphQLError(error)]
    }
    const enveloped = yoga.getEnveloped({ requestContext, params: { query, operationName: payload.operationName, variables: payload.variables } })
    let document: DocumentNode
    try {
      document = enveloped.parse(query)
    } catch (error) {
      return [error instanceof GraphQLError ? error : toGraphQLError(error)]
    }
    const errors = enveloped.validate(enveloped.schema, document)
    if (errors.length) return errors.slice(0, GRAPHQL_LIMITS.maxRequestErrors)
    const contextValue = (await enveloped.contextFactory()) as unknown as RequestContext
    envelopes.set(contextValue, enveloped)
    return { schema: enveloped.schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue }
  }

  /**
   * The document an operation runs: the one its `documentId` names (then `query` must be empty:
   * graphql-transport-ws requires the field), or its `query` text if the trusted-documents policy
   * admits it for the caller.
   */
  async function documentOf(payload: SubscribePayload, ctx: RequestContext): Promise<string> {
    const documentId = (payload as SubscribePayload & { documentId?: unknown }).documentId
    if (documentId != null) {
      if (payload.query !== '') throw new AppError('bad_request', 'Send either query or documentId, not both (query "" with a documentId)')
      return policy.resolve(documentId)
    }
    await policy.admitText(() => ctx.auth.principal())
    return payload.query
  }

  /** Ends the connection when its token expires or its session is revoked (see the module comment). */
  function watchCredentials(socket: WebSocket, connection: Connection, principal: Principal) {
    const end = (message: string) => endConnection(socket, connection, CloseCode.Forbidden, message, new AppError('unauthenticated', message))
    connection.release = services.revocations.watch(principal, (why) => end(why === 'expired' ? MESSAGES.expired : MESSAGES.revoked))
  }

  /**
   * Closes the socket once its operations have ended: its subscriptions end on their own (the same
   * token expires at the same instant; at shutdown the hub ends them), and a client is told each
   * one's end before the close. One that does not read them is cut after a grace.
   */
  function endConnection(socket: WebSocket, connection: Connection, code: number, reason: string, refusal: AppError) {
    if (connection.ending) return
    connection.ending = { code, reason, refusal }
    if (connection.operations.size === 0) return closeSocket(socket, connection)
    setTimeout(() => closeSocket(socket, connection), CLOSE_GRACE_MS).unref()
  }

  function closeSocket(socket: WebSocket, connection: Connection) {
    if (socket.readyState !== WebSocket.OPEN) return
    socket.close(connection.ending!.code, connection.ending!.reason)
    // A client that does not complete the closing handshake is not waited for.
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref()
  }

  function stateOf(req: IncomingMessage) {
    return openRequestState(undefined, req.socket.remoteAddress, header(req, 'x-forwarded-for'), config.trustProxyHops)
  }

  function onConnection(socket: WebSocket, request: IncomingMessage) {
    const connection: Connection = {
      request,
      openedAt: process.hrtime.bigint(),
      authorization: undefined,
      principal: undefined,
      operations: new Map(),
      ending: undefined,
      release: () => {},
    }
    connections.set(socket, connection)
    connectionOfSocket.set(socket, connection)
    // A read error or an oversized message closes the socket (ws sends 1009/1002 itself).
    socket.on('error', (err) => logger.debug({ err }, 'graphql websocket error'))
    // Keep-alive: a peer that does not answer a ping by the next one is gone.
    let answered = true
    socket.on('pong', () => (answered = true))
    const keepAlive = setInterval(() => {
      if (!answered) return void socket.terminate()
      answered = false
      socket.ping()
    }, config.eventsPingSeconds * 1000)
    keepAlive.unref()
    // Checked before each answer is queued, as an SSE stream checks its response: a client past the
    // bound gets no more, so at most the bound and one answer wait for it.
    let cut: NodeJS.Timeout | undefined
    const behind = () => {
      if (socket.bufferedAmount <= MAX_BUFFERED_BYTES) return false
      logger.info(
        { route: path, ip: stateOf(request).clientIp, sub: connection.principal?.clientId, unsent: socket.bufferedAmount },
        'graphql websocket behind',
      )
      socket.close(TRY_AGAIN_LATER, BEHIND_REASON)
      // The close frame waits behind what is unread: a client that does not take it is not waited for.
      cut = setTimeout(() => socket.terminate(), config.streamEndGraceSeconds * 1000)
      cut.unref()
      return true
    }
    const onClosed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            // Answers of operations that end after the socket closed (or was told to) are dropped.
            if (socket.readyState !== WebSocket.OPEN || behind()) return resolve()
            // A socket closed meanwhile (the client left, or was cut) is not an error of the operation.
            socket.send(data, (err) => (err && socket.readyState === WebSocket.OPEN ? reject(err) : resolve()))
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) => {
          // One message per turn of the event loop: `ws` emits every message of a chunk at once, and
          // 40 pipelined introspections then ran in one turn (0.35-0.65 s); each now runs in its own.
          const inbox: string[] = []
          const next = () => {
            const text = inbox.shift()
            if (text === undefined) return
            if (socket.readyState === WebSocket.OPEN) {
              handle(text).catch((err: unknown) => {
                logger.error({ err }, 'graphql websocket message failed')
                socket.close(CloseCode.InternalServerError, 'Internal server error')
              })
            }
            if (inbox.length > 0) setImmediate(next)
          }
          socket.on('message', (data: Buffer, isBinary: boolean) => {
            // A socket told to close starts nothing more.
            if (socket.readyState !== WebSocket.OPEN) return
            if (isBinary) return void socket.close(CloseCode.BadRequest, 'Messages are JSON text')
            const text = data.toString('utf8')
            // As request bodies are: bounded before JSON.parse walks them (docs/operations.md, "Abuse limits").
            if (firstOutOfBounds(text)) return void socket.close(CloseCode.BadRequest, 'Message JSON is nested too deep or has too many keys')
            // As REST bodies are: a key twice in one object would let the last win unseen.
            if (isJsonText(text) && duplicateKeys(text).length > 0) return void socket.close(CloseCode.BadRequest, 'Message JSON has a key twice in one object')
            // Ten times the operations a socket may run, waiting to start, is a flood.
            if (inbox.length >= 10 * MAX_OPERATIONS_PER_SOCKET) return void socket.close(TRY_AGAIN_LATER, 'Too many messages waiting')
            if (inbox.push(text) === 1) setImmediate(next)
          })
        },
      },
      { socket },
    )
    socket.once('close', (code: number, reason: Buffer) => {
      clearInterval(keepAlive)
      clearTimeout(cut)
      connection.release()
      for (const listeners of connection.operations.values()) for (const listener of listeners.splice(0)) listener()
      connections.delete(socket)
      const ms = Number(process.hrtime.bigint() - connection.openedAt) / 1e6
      logger.info({ route: path, ip: stateOf(request).clientIp, sub: connection.principal?.clientId, code, ms: Math.round(ms) }, 'graphql websocket closed')
      onClosed(code, reason.toString()).catch((err: unknown) => logger.error({ err }, 'graphql websocket close failed'))
    })
  }

  return {
    upgrade: (req, socket, head) => {
      if (closed) return refuse(socket, 503, 'Service Unavailable')
      if (pathOf(req) !== path) return refuse(socket, 404, 'Not Found')
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req))
    },
    close: () => {
      closed = true
      const refusal = new AppError('service_unavailable', 'The service is shutting down', { headers: { 'retry-after': '1' } })
      for (const [socket, connection] of connections) endConnection(socket, connection, GOING_AWAY, 'Going away', refusal)
    },
  }
}

/**
 * What an operation's stream watches on the socket (docs/events.md, "Slow consumers"): the bytes
 * the socket has not sent (all operations', as a stream's response would), and the end of the
 * operation (completed by either side, or the socket closed).
 */
function operationWatch(socket: WebSocket, listeners: (() => void)[]): ResponseWatch {
  return {
    get buffered() {
      return socket.bufferedAmount
    },
    onClose: (listener) => {
      if (socket.readyState === WebSocket.CLOSED) listener()
      else listeners.push(listener)
    },
    cutUnlessFinished: (graceMs) => {
      if (socket.bufferedAmount === 0) return
      setTimeout(() => {
        if (socket.bufferedAmount > 0) socket.terminate()
      }, graceMs).unref()
    },
  }
}

const graphqlTransportWs = (protocols: Set<string>) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false)

/** A close reason is at most 123 bytes (RFC 6455 §5.5). */
const closeReason = (message: string) => (Buffer.byteLength(message) <= 123 ? message : `${message.slice(0, 100)}…`)

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?', 1)[0]

/** An upgrade not served: a bare HTTP answer, then the connection ends. */
function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}
