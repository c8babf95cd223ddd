import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Node's request listener for the whole service. */
export interface Listener {
  handle: (req: IncomingMessage, res: ServerResponse) => void
}

export interface RunningServer<L extends Listener = Listener> {
  server: Server
  app: L
  url: string
  close: () => Promise<void>
}

const DRAIN_TIMEOUT_MS = 10_000

/**
 * Listens on `port`/`host`. `close` stops accepting connections, lets in-flight requests finish
 * (each answered with `Connection: close`, and idle keep-alive connections closed as they become
 * idle), then resolves; connections still open after 10 s are cut.
 */
export async function listen<L extends Listener>(app: L, port: number, host: string): Promise<RunningServer<L>> {
  const server = createServer(app.handle)
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.requestTimeout = 30_000
  const inFlight = new Set<ServerResponse>()
  let draining = false
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('connection', 'close')
    inFlight.add(res)
    res.on('close', () => inFlight.delete(res))
  })
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
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close')
        const sweep = setInterval(() => server.closeIdleConnections(), 100)
        const cut = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS)
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      })),
  }
}
