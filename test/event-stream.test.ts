import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'

import { expect, it } from 'vitest'

import { EventStreamWriter } from '../src/http/event-stream.ts'

it('waits for a stalled socket with one drain listener, however many deliveries wait, and frees it when drained', async () => {
  let res!: ServerResponse
  const opened = new Promise<void>((resolve) => {
    const server = createServer((_req, r) => {
      res = r
      r.writeHead(200, { 'content-type': 'text/event-stream' })
      resolve()
    })
    server.listen(0, '127.0.0.1', () => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1')
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
      socket.pause()
      after.push(() => {
        socket.destroy()
        server.close()
      })
    })
  })
  const after: (() => void)[] = []
  await opened
  const writer = new EventStreamWriter(res)
  // More than the socket takes while nobody reads.
  for (let i = 0; i < 200 && res.writableLength < 4 << 20; i++) writer.send([{ id: i, event: 'e', data: 'x'.repeat(64 * 1024) }])
  expect(writer.buffered).toBeGreaterThan(0)
  const waits = Array.from({ length: 50 }, () => writer.drained())
  expect(res.listenerCount('drain')).toBe(1)
  expect(new Set(waits).size).toBe(1)
  // The connection goes: every wait ends, and nothing is left listening.
  after.forEach((f) => f())
  await Promise.all(waits)
  expect(res.listenerCount('drain')).toBe(0)
})
