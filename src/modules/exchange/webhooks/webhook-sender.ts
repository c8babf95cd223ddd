import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

import { guardedLookup, isRefusedAddress, literalAddress } from './webhook-addresses.ts'

/** One POST of one event to one endpoint, and what came of it (docs/webhooks.md, "Delivery"). */
export interface SendResult {
  /** The answer's status, or null when none came (refused, unreachable, timed out). */
  status: number | null
  durationMs: number
  /** Why it was not delivered: null for a 2xx. */
  error: string | null
}

export interface SenderOptions {
  allowHttp: boolean
  allowPrivate: boolean
  /** An answer must have come in full within this time (10 s). */
  timeoutMs: number
}

/** At most this much of an answer is read; the rest is dropped with the connection. */
export const MAX_ANSWER_BYTES = 4096

/**
 * POSTs with keep-alive agents whose `lookup` refuses private addresses (unless allowed), so the
 * check is on the address each connection actually uses. Redirects are answers like any other
 * non-2xx: never followed.
 */
export class WebhookSender {
  readonly #http: HttpAgent
  readonly #https: HttpsAgent

  constructor(private readonly options: SenderOptions) {
    const lookup = options.allowPrivate ? undefined : guardedLookup
    // Bounded sockets per receiver: a slow one holds its own, never everyone's.
    this.#http = new HttpAgent({ keepAlive: true, maxSockets: 4, ...(lookup ? { lookup } : {}) })
    this.#https = new HttpsAgent({ keepAlive: true, maxSockets: 4, ...(lookup ? { lookup } : {}) })
  }

  send(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return Promise.resolve({ status: null, durationMs: 0, error: 'The URL is not valid' })
    }
    const refusal = this.refusal(target)
    if (refusal) return Promise.resolve({ status: null, durationMs: 0, error: refusal })
    const https = target.protocol === 'https:'
    return new Promise<SendResult>((resolve) => {
      let settled = false
      const finish = (status: number | null, error: string | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve({ status, durationMs: elapsed(), error })
      }
      const request = (https ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        agent: https ? this.#https : this.#http,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'exchange-webhooks/1' },
      })
      const timer = setTimeout(() => {
        finish(null, `No answer within ${this.options.timeoutMs / 1000} s`)
        request.destroy()
      }, this.options.timeoutMs)
      const onAbort = () => {
        finish(null, 'The service stopped before an answer came')
        request.destroy()
      }
      signal?.addEventListener('abort', onAbort)
      request.on('error', (error: NodeJS.ErrnoException) => finish(null, describeError(error)))
      request.on('response', (response) => {
        let read = 0
        const status = response.statusCode ?? 0
        const done = () => {
          if (status >= 200 && status < 300) finish(status, null)
          else if (status >= 300 && status < 400) finish(status, `Answered ${status}: redirects are not followed`)
          else finish(status, `Answered ${status}`)
        }
        response.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read >= MAX_ANSWER_BYTES) {
            // Enough: the status is what counts, and a receiver's body is never buffered beyond this.
            done()
            response.destroy()
            request.destroy()
          }
        })
        response.on('end', done)
        response.on('error', () => done())
      })
      request.end(body)
    })
  }

  refusal(target: URL): string | undefined {
    return targetRefusal(target, this.options)
  }

  close(): void {
    this.#http.destroy()
    this.#https.destroy()
  }
}

/** Why a URL may not be POSTed to before any connection: its scheme, or a literal address. */
export function targetRefusal(target: URL, allowed: Pick<SenderOptions, 'allowHttp' | 'allowPrivate'>): string | undefined {
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && allowed.allowHttp)) return 'Only https URLs are delivered to'
  const literal = literalAddress(target.hostname)
  if (!allowed.allowPrivate && literal !== undefined && isRefusedAddress(literal)) return `${literal} is a private or reserved address`
  if (!allowed.allowPrivate && /^localhost\.?$/i.test(target.hostname)) return 'localhost is a private address'
  return undefined
}

/** A connection error in words, naming no secret: the code, or the refusal's own message. */
function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'EWEBHOOKADDRESS') return error.message.slice(0, 200)
  return `Connection failed: ${error.code ?? error.message.slice(0, 200)}`
}
