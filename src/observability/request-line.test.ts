import { Writable } from 'node:stream'

import { describe, expect, it } from 'vitest'

import { createLogger } from './logger.ts'
import { type RequestLine, requestLineWriter } from './request-line.ts'

class Lines extends Writable {
  text = ''
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString('utf8')
    done()
  }
  take(): string[] {
    const lines = this.text.split('\n').filter(Boolean)
    this.text = ''
    return lines
  }
}

const LINES: RequestLine[] = [
  {
    requestId: 'bank-trace-7',
    method: 'GET',
    route: '/api/exchange/v1/symbols',
    status: 200,
    ms: 0.3,
    ip: '203.0.113.9',
    sub: '70cd65a3-0dfe-43c6-af6c-a6237750ec97',
  },
  { requestId: 'a'.repeat(128), method: 'POST', route: '/graphql', operation: 'Symbols', status: 401, ms: 12, ip: '::1' },
  { requestId: 'x', method: 'DELETE', route: 'unmatched', status: 503, ms: 1234.5, ip: 'quote"back\\slash\u0001\u2028', sub: 'ünïcode' },
]

/** The same line as pino writes it, timestamp aside (written a moment apart). */
const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"')

describe('requestLineWriter', () => {
  it('is byte for byte what pino writes for the same fields, level by status', async () => {
    const sink = new Lines()
    const logger = createLogger({ logLevel: 'info' }, sink)
    const write = requestLineWriter(logger)
    for (const line of LINES) {
      write(line)
      // The fixtures list their fields in the writer's order, which pino keeps.
      if (line.status >= 500) logger.error(line, 'request')
      else logger.info(line, 'request')
      await new Promise((r) => setImmediate(r))
      const [fast, reference] = sink.take()
      expect(withoutTime(fast!)).toBe(withoutTime(reference!))
      expect(JSON.parse(fast!)).toMatchObject({
        level: line.status >= 500 ? 50 : 30,
        service: 'exchange-api',
        msg: 'request',
        requestId: line.requestId,
        ip: line.ip,
      })
    }
  })

  it('follows the logger level: nothing at warn, errors only at error', async () => {
    const sink = new Lines()
    const write = requestLineWriter(createLogger({ logLevel: 'error' }, sink))
    write(LINES[0]!)
    write(LINES[2]!)
    await new Promise((r) => setImmediate(r))
    expect(sink.take().map((l) => JSON.parse(l).status)).toEqual([503])
    const silent = new Lines()
    const none = requestLineWriter(createLogger({ logLevel: 'silent' }, silent))
    none(LINES[2]!)
    await new Promise((r) => setImmediate(r))
    expect(silent.take()).toEqual([])
  })
})
