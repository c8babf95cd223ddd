import { MESSAGES } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { AppError, unauthenticated } from '../../../core/errors.ts'
import type { EventStreamWriter, StreamMessage } from '../../../http/event-stream.ts'
import type { EventSink, Subscription } from './event-hub.ts'
import type { StoredEvent } from './events.repository.ts'
import type { StreamStart } from './events.ts'

/**
 * Slow consumers (docs/events.md): what one stream may hold for a client that does not read. An SSE
 * stream past MAX_BUFFERED_BYTES unsent, or a subscription past MAX_QUEUED_EVENTS undelivered, is
 * told to resync and ended; it resumes by id and loses nothing. While catching up, a stream waits
 * for the client instead (CATCH_UP_HIGH_WATER).
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024
export const MAX_QUEUED_EVENTS = 2000
const CATCH_UP_HIGH_WATER = 64 * 1024
// A client that stopped reading is not waited for once its stream has ended.
const END_GRACE_MS = 5000

/** When the stream's token expires, in ms from now (never negative). */
const untilExpiry = (start: StreamStart) => Math.max(0, start.principal.exp * 1000 - Date.now())

const eventMessage = (event: StoredEvent): StreamMessage => ({ id: event.sequence, event: event.type, data: event.payload })

/**
 * Serves an opened stream as Server-Sent Events until the client leaves, its token expires
 * (`event: token_expired`), it falls too far behind (`event: resync`) or the process stops.
 */
export function serveEventStream(ctx: RequestContext, start: StreamStart, writer: EventStreamWriter): void {
  let ended = false
  const finish = () => {
    if (ended) return
    ended = true
    clearInterval(ping)
    clearTimeout(expiry)
    subscription.close()
    start.release()
  }
  /** Ends the stream with a last message (none on shutdown: the client just reconnects). */
  const endWith = (message: StreamMessage | undefined) => {
    if (ended) return
    ctx.services.metrics.eventStreamEnded(message === undefined ? 'shutdown' : message.event === 'token_expired' ? 'token_expired' : 'resync')
    finish()
    if (message) writer.send([message])
    writer.end(END_GRACE_MS)
  }
  /** A message that ends the stream, saying where to resume: after the last event written. */
  const lastMessage = (event: string, message: string, after: number) => ({ id: undefined, event, data: JSON.stringify({ message, after }) })
  const sink: EventSink = {
    deliver: (events) => {
      if (ended) return
      // Events are contiguous: the last one written is the one before these.
      const written = events[0]!.sequence - 1
      if (writer.buffered > MAX_BUFFERED_BYTES)
        return endWith(lastMessage('resync', 'The stream fell too far behind: resume after the sequence given', written))
      writer.send(events.map(eventMessage))
      // While catching up the hub waits for this; live, it does not, and the check above bounds the buffer.
      if (writer.buffered > CATCH_UP_HIGH_WATER) return writer.drained()
    },
    end: (reason) =>
      endWith(reason === 'shutdown' ? undefined : lastMessage('resync', 'The stream was interrupted: resume after the sequence given', subscription.delivered)),
  }
  const subscription: Subscription = ctx.services.events.subscribe(start.key, start.after, sink)
  const ping = setInterval(() => writer.comment('ping'), ctx.services.config.eventsPingSeconds * 1000)
  const expiry = setTimeout(() => endWith(lastMessage('token_expired', MESSAGES.expired, subscription.delivered)), untilExpiry(start))
  writer.onClose(finish)
}

/** What a GraphQL subscription yields: an event, or the error that ends the stream (its field's resolver throws it). */
export type StreamItem<T> = { event: T } | { error: AppError }

// Queued events past which a subscription still catching up makes the hub wait for its client.
const CATCH_UP_QUEUE = 200

/**
 * An opened stream as a GraphQL subscription's source (Yoga sends it over SSE). It yields events
 * until the client leaves, the process stops (it completes), or the stream ends with an error the
 * client acts on: `UNAUTHENTICATED` when the token expires, `RESYNC` when it fell too far behind.
 */
export function eventIterator<T>(ctx: RequestContext, start: StreamStart, parse: (event: StoredEvent) => T): AsyncIterableIterator<StreamItem<T>> {
  const queue: StoredEvent[] = []
  let done = false
  let final: AppError | undefined
  let wakeConsumer: (() => void) | undefined
  let wakeProducer: (() => void) | undefined
  const wake = () => {
    const consumer = wakeConsumer
    wakeConsumer = undefined
    consumer?.()
  }
  const release = () => {
    const producer = wakeProducer
    wakeProducer = undefined
    producer?.()
  }
  const finish = (error?: AppError, reason?: 'token_expired' | 'resync' | 'shutdown') => {
    if (done) return
    if (reason) ctx.services.metrics.eventStreamEnded(reason)
    done = true
    final = error
    clearTimeout(expiry)
    subscription.close()
    start.release()
    release()
    wake()
  }
  const subscription = ctx.services.events.subscribe(start.key, start.after, {
    deliver: (events) => {
      if (done) return
      if (queue.length + events.length > MAX_QUEUED_EVENTS) {
        return finish(new AppError('resync', `The stream fell too far behind: resume after ${events[0]!.sequence - 1}`), 'resync')
      }
      queue.push(...events)
      wake()
      if (queue.length >= CATCH_UP_QUEUE) return new Promise<void>((resolve) => (wakeProducer = resolve))
    },
    end: (reason) =>
      reason === 'shutdown'
        ? finish(undefined, 'shutdown')
        : finish(new AppError('resync', `The stream was interrupted: resume after ${subscription.delivered}`), 'resync'),
  })
  const expiry = setTimeout(() => finish(unauthenticated(MESSAGES.expired), 'token_expired'), untilExpiry(start))
  const stop = (): Promise<IteratorResult<StreamItem<T>>> => {
    finish()
    queue.length = 0
    final = undefined
    return Promise.resolve({ value: undefined, done: true })
  }
  return {
    next: async () => {
      for (;;) {
        const event = queue.shift()
        if (event) {
          if (queue.length === 0) release()
          return { value: { event: parse(event) }, done: false }
        }
        if (done) {
          const error = final
          final = undefined
          return error ? { value: { error }, done: false } : { value: undefined, done: true }
        }
        await new Promise<void>((resolve) => (wakeConsumer = resolve))
      }
    },
    return: stop,
    throw: stop,
    [Symbol.asyncIterator]() {
      return this
    },
  }
}
