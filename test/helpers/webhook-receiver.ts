import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { Webhook } from 'standardwebhooks'

/** One request a receiver got: its headers and body exactly as sent. */
export interface Received {
  headers: IncomingHttpHeaders
  body: string
  id: string
  sequence: number
}

/**
 * A webhook receiver on 127.0.0.1 (node:http): records every POST and answers with `status()`
 * (200 by default), or with a redirect or nothing at all when a test says so.
 */
export class WebhookReceiver {
  readonly received: Received[] = []
  status: () => number = () => 200
  #server: Server | undefined

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const id = String(req.headers['webhook-id'])
        this.received.push({ headers: req.headers, body, id, sequence: Number(id.split(':')[1]) })
        const status = this.status()
        res.writeHead(status, status >= 300 && status < 400 ? { location: 'https://elsewhere.example/' } : {})
        res.end('x'.repeat(10_000))
      })
    })
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}/hook`
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections()
    await new Promise((resolve) => this.#server?.close(resolve))
  }
}

/**
 * Whether `secret` signed `r` as Standard Webhooks says, by the `standardwebhooks` package's own
 * signing (its `verify` also checks the timestamp against the real clock: used where the
 * dispatcher's clock was not moved).
 */
export function signedBy(secret: string, r: Received): boolean {
  const timestamp = Number(r.headers['webhook-timestamp'])
  const expected = new Webhook(secret).sign(r.id, new Date(timestamp * 1000), r.body)
  return String(r.headers['webhook-signature']).split(' ').includes(expected)
}

export function verifyNow(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>)
}
