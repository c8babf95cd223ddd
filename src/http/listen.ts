import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/** Node's request listener for the whole service. */
export interface Listener {
  handle: (req: IncomingMessage, res: ServerResponse) => void
  /** Takes requests to switch protocols (WebSocket); without it they are served as any request. */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  /** Ends the connections `upgrade` took, which the HTTP server no longer drains, when it closes. */
  closeUpgraded?: () => void
}

export interface RunningServer<L extends Listener = Listener> {
  server: Server
  app: L
  url: string
  close: () => Promise<void>
}

/** What one address may hold (docs/operations.md, "Connections"). */
export interface ConnectionLimits {
  /** Seconds a connection may stay open before its first request's head has arrived; and what a later head may take from its first byte. */
  idleSeconds: number
  /** Connections open at once from one remote address; one more is closed at once. */
  perAddress: number
}

const DRAIN_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000
const CHECK_INTERVAL_MS = 250
const HEADERS_GRACE_MS = 1000

/**
 * Listens on `port`/`host`. `close` stops accepting connections, lets in-flight requests finish
 * (each answered with `Connection: close`, and idle keep-alive connections closed as they become
 * idle), then resolves; connections still open after 10 s are cut. A connection that has not
 * sent a request head within `limits.idleSeconds` is closed, and so is one from an address that
 * already holds `limits.perAddress`: sockets cost memory and a descriptor whoever opens them.
 * Upgraded connections (WebSocket) count against the same cap; `close` refuses new upgrades (503)
 * and has the app end the open ones (`closeUpgraded`).
 */
export async function listen<L extends Listener>(app: L, port: number, host: string, limits: ConnectionLimits): Promise<RunningServer<L>> {
  // Node checks headersTimeout/requestTimeout on this interval (30 s unless told): with it, a
  // request head must be complete within about a quarter second of its deadline.
  const server = createServer({ connectionsCheckingInterval: CHECK_INTERVAL_MS }, app.handle)
  server.keepAliveTimeout = 65_000
  server.requestTimeout = REQUEST_TIMEOUT_MS
  // A keep-alive connection idles up to 65 s between requests, but once the next request has
  // begun, its head gets CONNECTION_IDLE_SECONDS as the first request's did, not a minute for
  // bytes to trickle in (docs/operations.md, "Connections"). Node times a head from its first
  // byte and answers 408. A first request's head is the idle timer's below (closed without an
  // answer); HEADERS_GRACE_MS more here lets that timer act first.
  server.headersTimeout = Math.min(limits.idleSeconds * 1000 + HEADERS_GRACE_MS, REQUEST_TIMEOUT_MS)
  const inFlight = new Set<ServerResponse>()
  let draining = false
  // Until its first request: the timer that closes a connection that sends none. Closing the
  // server ends these at once: they hold no request, and the HTTP server's own sweep of idle
  // connections leaves them to their timer.
  const awaitingRequest = new Map<Socket, NodeJS.Timeout>()
  const perAddress = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? ''
    const open = perAddress.get(address) ?? 0
    if (open >= limits.perAddress) return void socket.destroy()
    perAddress.set(address, open + 1)
    const idle = setTimeout(() => socket.destroy(), limits.idleSeconds * 1000)
    idle.unref()
    awaitingRequest.set(socket, idle)
    socket.once('close', () => {
      clearTimeout(idle)
      awaitingRequest.delete(socket)
      const left = (perAddress.get(address) ?? 1) - 1
      if (left > 0) perAddress.set(address, left)
      else perAddress.delete(address)
    })
  })
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    // Once a connection has sent a request, keep-alive timeouts govern it.
    const idle = awaitingRequest.get(req.socket)
    if (idle) {
      clearTimeout(idle)
      awaitingRequest.delete(req.socket)
    }
    if (draining) res.setHeader('connection', 'close')
    inFlight.add(res)
    res.on('close', () => inFlight.delete(res))
  })
  const { upgrade } = app
  if (upgrade) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const idle = awaitingRequest.get(req.socket)
      if (idle) {
        clearTimeout(idle)
        awaitingRequest.delete(req.socket)
      }
      if (draining) return void socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      upgrade(req, socket, head)
    })
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  let closing: Promise<void> | undefined
  return {
    server,
    app,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        draining = true
        app.closeUpgraded?.()
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
        const sweep = setInterval(() => server.closeIdleConnections(), 100)
        const cut = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS)
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
        for (const socket of awaitingRequest.keys()) socket.destroy()
      })),
  }
}
