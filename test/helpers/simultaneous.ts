import { connect, type Socket } from 'node:net'

export interface SimultaneousResponse {
  status: number
  body: any
}

/**
 * POSTs each JSON body to `path` at the same instant, each on its own connection. Node accepts
 * one connection per turn of its event loop, so a busy in-process server would otherwise see
 * requests on fresh connections one by one: every connection first answers a `GET /healthz`,
 * then all requests are written together.
 */
export async function postSimultaneously(baseUrl: string, path: string, bodies: unknown[]): Promise<SimultaneousResponse[]> {
  const { hostname, port } = new URL(baseUrl)
  const host = `${hostname}:${port}`
  const connections = await Promise.all(
    bodies.map(async () => {
      const connection = new Connection(await open(Number(port), hostname))
      connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
      await connection.response()
      return connection
    }),
  )
  connections.forEach(({ socket }, i) => {
    const body = JSON.stringify(bodies[i])
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  return Promise.all(
    connections.map(async (connection) => {
      const { status, body } = await connection.response()
      connection.socket.destroy()
      return { status, body: body ? JSON.parse(body) : undefined }
    }),
  )
}

function open(port: number, host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Reads HTTP/1.1 responses (Content-Length or chunked) off one socket, in order. */
class Connection {
  #buffer = Buffer.alloc(0)
  #waiting: (() => void) | undefined
  #failure: Error | undefined

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk])
      this.#waiting?.()
    })
    const fail = (error: Error) => {
      this.#failure = error
      this.#waiting?.()
    }
    socket.once('error', fail)
    socket.once('close', () => fail(new Error('connection closed before a complete response')))
  }

  async response(): Promise<{ status: number; body: string }> {
    for (;;) {
      const parsed = this.#take()
      if (parsed) return parsed
      if (this.#failure) throw this.#failure
      await new Promise<void>((resolve) => (this.#waiting = resolve))
    }
  }

  #take(): { status: number; body: string } | undefined {
    const headEnd = this.#buffer.indexOf('\r\n\r\n')
    if (headEnd < 0) return undefined
    const head = this.#buffer.subarray(0, headEnd).toString('latin1')
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
    const rest = this.#buffer.subarray(headEnd + 4)
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
    if (length !== undefined) {
      if (rest.length < Number(length)) return undefined
      this.#buffer = rest.subarray(Number(length))
      return { status, body: rest.subarray(0, Number(length)).toString('utf8') }
    }
    if (!/\r\ntransfer-encoding: *chunked/i.test(head)) throw new Error(`unframed response: ${head}`)
    const parts: Buffer[] = []
    for (let at = 0; ;) {
      const lineEnd = rest.indexOf('\r\n', at)
      if (lineEnd < 0) return undefined
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16)
      if (rest.length < lineEnd + 2 + size + 2) return undefined
      if (size === 0) {
        this.#buffer = rest.subarray(lineEnd + 4)
        return { status, body: Buffer.concat(parts).toString('utf8') }
      }
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
  }
}
