import type { ServerResponse } from 'node:http'

import type { ResponseWatch } from '../core/context.ts'

/** One message of a stream: `id` (omitted when undefined), `event`, and `data`, which is one line of JSON. */
export interface StreamMessage {
  id: number | undefined
  event: string
  data: string
}

/**
 * A Server-Sent Events response (the WHATWG `text/event-stream` format) after its head is written:
 * messages and comments are written as they come, several messages in one write. What the socket
 * has not taken yet stays in `buffered`, which the caller bounds (docs/events.md, "Slow consumers").
 */
export class EventStreamWriter {
  readonly #closeListeners: (() => void)[] = []
  /** The one wait for the socket to drain, shared by every caller while it lasts. */
  #drain: Promise<void> | undefined

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => {
      for (const listener of this.#closeListeners.splice(0)) listener()
    })
  }

  /** The connection is gone (or ended): nothing written now reaches the client. */
  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded
  }

  /** Bytes written but not yet taken by the socket. */
  get buffered(): number {
    return this.res.writableLength
  }

  send(messages: readonly StreamMessage[]): void {
    if (this.closed || messages.length === 0) return
    let text = ''
    for (const { id, event, data } of messages) text += `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`
    this.res.write(text)
  }

  /** A comment line (`: text`), which clients ignore: keeps proxies and clients from deeming the stream dead. */
  comment(text: string): void {
    if (!this.closed) this.res.write(`: ${text}\n\n`)
  }

  /**
   * Resolves once the socket has taken what is buffered, or the connection is gone. Callers while
   * one wait lasts share it: one listener per socket, however many deliveries wait.
   */
  drained(): Promise<void> {
    if (this.closed || this.res.writableLength === 0) return Promise.resolve()
    return (this.#drain ??= new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done)
        const at = this.#closeListeners.indexOf(done)
        if (at >= 0) this.#closeListeners.splice(at, 1)
        this.#drain = undefined
        resolve()
      }
      this.res.once('drain', done)
      this.onClose(done)
    }))
  }

  /** Called once when the connection closes, whoever closes it; at once if it already has. */
  onClose(listener: () => void): void {
    if (this.res.destroyed || this.res.closed) listener()
    else this.#closeListeners.push(listener)
  }

  /**
   * Ends the stream; if the client has not taken everything within `graceMs`, cuts the connection
   * (a client that stopped reading is not waited for; it resumes by id from what it did read).
   */
  end(graceMs: number): void {
    if (this.closed) return
    this.res.end()
    if (this.res.writableFinished) return
    const cut = setTimeout(() => this.res.destroy(), graceMs)
    cut.unref()
    this.res.once('finish', () => clearTimeout(cut))
  }
}

/**
 * A response another writer streams (Yoga's GraphQL-over-SSE), watched by what feeds it: nothing
 * is registered on the response until asked.
 */
export function watchResponse(res: ServerResponse): ResponseWatch {
  return {
    get buffered() {
      return res.writableLength
    },
    onClose: (listener) => {
      if (res.destroyed || res.closed) listener()
      else res.once('close', listener)
    },
    cutUnlessFinished: (graceMs) => {
      if (res.destroyed || res.writableFinished) return
      const cut = setTimeout(() => res.destroy(), graceMs)
      cut.unref()
      res.once('close', () => clearTimeout(cut))
    },
  }
}
