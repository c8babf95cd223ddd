import type { AddressInfo } from 'node:net'
import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy in front of a real server, to cause network faults on purpose: `refuse()` drops
 * every connection and refuses new ones (the server is gone), `blackhole()` keeps connections open
 * but forwards nothing (a hung network), `restore()` forwards again.
 */
export interface TcpProxy {
  port: number
  refuse: () => Promise<void>
  blackhole: () => void
  restore: () => Promise<void>
  close: () => Promise<void>
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>()
  let mode: 'forward' | 'blackhole' = 'forward'
  let server: Server | undefined
  let port = 0

  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost)
      const pair: [Socket, Socket] = [client, upstream]
      pairs.add(pair)
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (mode === 'forward') to.write(chunk)
        })
      forward(client, upstream)
      forward(upstream, client)
      const drop = () => {
        pairs.delete(pair)
        client.destroy()
        upstream.destroy()
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
    port = (server!.address() as AddressInfo).port
  }
  const stop = async () => {
    for (const [a, b] of pairs) {
      a.destroy()
      b.destroy()
    }
    pairs.clear()
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
    server = undefined
  }

  await listen()
  return {
    port,
    refuse: stop,
    blackhole: () => {
      mode = 'blackhole'
    },
    restore: async () => {
      mode = 'forward'
      if (!server) await listen()
    },
    close: stop,
  }
}
