import { connect } from 'node:net'

export interface RawResult {
  /** Status codes of the complete responses received, in order (interim 1xx left out). */
  statuses: number[]
  /** The connection ended or timed out before `expected` responses arrived. */
  incomplete: boolean
  timedOut: boolean
}

/**
 * Sends bytes as they are on a fresh connection (for requests fetch refuses to send) and reads
 * responses until `expected` complete ones arrived, the server closed, or `timeoutMs` passed.
 */
export function sendRaw(
  port: number,
  bytes: Buffer,
  options: { expected?: number; head?: boolean; timeoutMs?: number; /** Half-close after sending: the client stops mid-request. */ end?: boolean } = {},
): Promise<RawResult> {
  const expected = options.expected ?? 1
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let buffer = Buffer.alloc(0)
    // Chunks not yet joined to `buffer`, and how many bytes the next response needs: joined only
    // when it is all there, so a large body costs one copy, not one per chunk.
    let pending: Buffer[] = []
    let pendingBytes = 0
    let needed = 0
    const statuses: number[] = []
    let settled = false
    const finish = (timedOut: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ statuses, incomplete: statuses.length < expected, timedOut })
    }
    const timer = setTimeout(() => finish(true), options.timeoutMs ?? 20_000)
    const parse = (ended: boolean) => {
      for (;;) {
        const headEnd = buffer.indexOf('\r\n\r\n')
        if (headEnd < 0) return
        const head = buffer.subarray(0, headEnd).toString('latin1')
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1])
        const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
        const chunked = /\r\ntransfer-encoding: *chunked/i.test(head)
        let end: number
        if (status >= 100 && status < 200) end = headEnd + 4
        else if ((options.head && statuses.length === 0) || status === 204 || status === 304) end = headEnd + 4
        // An event stream never ends by itself (GET …/events with Accept: text/event-stream): its
        // head is the answer; closing the connection ends the stream.
        else if (/\r\ncontent-type: *text\/event-stream/i.test(head)) end = headEnd + 4
        else if (length !== undefined) end = headEnd + 4 + Number(length)
        else if (chunked) {
          const terminator =
            buffer.indexOf('\r\n0\r\n\r\n', headEnd) >= 0
              ? buffer.indexOf('\r\n0\r\n\r\n', headEnd) + 7
              : buffer.indexOf('0\r\n\r\n', headEnd + 4) === headEnd + 4
                ? headEnd + 9
                : -1
          if (terminator < 0) return
          end = terminator
        } else if (ended) end = buffer.length
        else return
        if (buffer.length < end) {
          needed = end
          return
        }
        needed = 0
        if (!(status >= 100 && status < 200)) statuses.push(status)
        buffer = buffer.subarray(end)
        if (statuses.length >= expected) return finish(false)
      }
    }
    const join = () => {
      if (pending.length) buffer = Buffer.concat([buffer, ...pending])
      pending = []
      pendingBytes = 0
    }
    socket.on('data', (chunk) => {
      pending.push(chunk)
      pendingBytes += chunk.length
      if (buffer.length + pendingBytes < needed) return
      join()
      parse(false)
    })
    socket.on('end', () => {
      join()
      parse(true)
      finish(false)
    })
    socket.on('error', () => finish(false))
    socket.on('close', () => finish(false))
    if (options.end) socket.end(bytes)
    else socket.write(bytes)
  })
}
