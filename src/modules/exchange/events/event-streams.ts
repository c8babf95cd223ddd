import { MESSAGES } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { AppError, unauthenticated } from '../../../core/errors.ts'
import type { EventStreamWriter, StreamMessage } from '../../../http/event-stream.ts'
import type { StoredEvent } from './events.repository.ts'
import type { StreamStart } from './events.ts'

/**
 * Slow consumers (docs/events.md): what one stream may hold for a client that does not read. A
 * stream past MAX_BUFFERED_BYTES unsent (a subscription: its undelivered events and what its
 * response has not sent), or a subscription past MAX_QUEUED_EVENTS undelivered, is told to resync
 * and ended; it resumes by id and loses nothing. While catching up, a stream waits for the client
 * instead (CATCH_UP_HIGH_WATER).
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024
export const MAX_QUEUED_EVENTS = 2000
const CATCH_UP_HIGH_WATER = 64 * 1024

// A client that stopped reading is not waited for once its stream has ended (STREAM_END_GRACE_SECONDS).
const endGraceMs = (ctx: RequestContext) => ctx.services.config.streamEndGraceSeconds * 1000

const eventMessage = (event: StoredEvent): StreamMessage => ({ id: event.sequence, event: event.type, data: event.payload })

/**
 * Why the service ends a stream. `token_revoked`: its session was revoked or its client
 * deactivated; `behind`: the client fell too far behind; `interrupted`: the stream's events could
 * not be read; both are a resync for the client.
 */
type EndReason = 'token_expired' | 'token_revoked' | 'behind' | 'interrupted' | 'shutdown'

/** How one face carries a stream: an SSE response or a GraphQL subscription's iterator. */
interface StreamFace {
  /** Whether the client already holds so much undelivered that `incoming` more events would overflow its bound. */
  behind: (incoming: number) => boolean
  /** Takes events in order; while the stream catches up the hub waits for the returned promise. */
  write: (events: readonly StoredEvent[]) => void | Promise<void>
  /** Renders the end; `after` is the last sequence given to the client, where it resumes. Called once. */
  end: (reason: EndReason, after: number) => void
}

/**
 * What both faces share: the subscription to the hub, the slow-consumer check, the end at the
 * token's expiry or revocation, the stream slot, and counting how streams end. `close` is for a
 * client that left (nothing more is rendered).
 */
function follow(ctx: RequestContext, start: StreamStart, face: StreamFace): { close: () => void } {
  const { revocations, metrics, events } = ctx.services
  let ended = false
  const close = () => {
    if (ended) return false
    ended = true
    unwatch()
    subscription.close()
    start.release()
    return true
  }
  const endWith = (reason: EndReason, after: number) => {
    if (!close()) return
    metrics.eventStreamEnded(reason === 'behind' || reason === 'interrupted' ? 'resync' : reason)
    face.end(reason, after)
  }
  const subscription = events.subscribe(start.key, start.after, {
    deliver: (delivered) => {
      if (ended) return
      // Types the caller may not see are passed over; the sequences show the gap (docs/events.md).
      const events = start.skipped.size === 0 ? delivered : delivered.filter((event) => !start.skipped.has(event.type))
      if (events.length === 0) return
      // Delivered events are contiguous: the last one the client was given is before these.
      if (face.behind(events.length)) return endWith('behind', delivered[0]!.sequence - 1)
      return face.write(events)
    },
    end: (reason) => endWith(reason === 'shutdown' ? 'shutdown' : 'interrupted', subscription.delivered),
  })
  // The token was checked when the stream opened; its expiry, or a revocation seen since (each
  // reload of the cache, every couple of seconds), ends the stream as it refuses the token's next request.
  const unwatch = revocations.watch(start.principal, (why) => endWith(why === 'expired' ? 'token_expired' : 'token_revoked', subscription.delivered))
  return { close: () => void close() }
}

/** The last SSE message of a stream the service ends (none on shutdown: the client just reconnects). */
const END_MESSAGES: Record<Exclude<EndReason, 'shutdown'>, { event: string; message: string }> = {
  token_expired: { event: 'token_expired', message: MESSAGES.expired },
  token_revoked: { event: 'token_revoked', message: MESSAGES.revoked },
  behind: { event: 'resync', message: 'The stream fell too far behind: resume after the sequence given' },
  interrupted: { event: 'resync', message: 'The stream was interrupted: resume after the sequence given' },
}

/**
 * Serves an opened stream as Server-Sent Events until the client leaves, its token expires
 * (`event: token_expired`) or is revoked (`event: token_revoked`), it falls too far behind
 * (`event: resync`) or the process stops.
 */
export function serveEventStream(ctx: RequestContext, start: StreamStart, writer: EventStreamWriter): void {
  const stream = follow(ctx, start, {
    behind: () => writer.buffered > MAX_BUFFERED_BYTES,
    write: (events) => {
      writer.send(events.map(eventMessage))
      // While catching up the hub waits for this; live, it does not, and `behind` bounds the buffer.
      if (writer.buffered > CATCH_UP_HIGH_WATER) return writer.drained()
    },
    end: (reason, after) => {
      clearInterval(ping)
      if (reason !== 'shutdown') {
        const { event, message } = END_MESSAGES[reason]
        writer.send([{ id: undefined, event, data: JSON.stringify({ message, after }) }])
      }
      writer.end(endGraceMs(ctx))
    },
  })
  const ping = setInterval(() => writer.comment('ping'), ctx.services.config.eventsPingSeconds * 1000)
  writer.onClose(() => {
    clearInterval(ping)
    stream.close()
  })
}

/** What a GraphQL subscription yields: an event, or the error that ends the stream (its field's resolver throws it). */
export type StreamItem<T> = { event: T } | { error: AppError }

// Queued events past which a subscription still catching up makes the hub wait for its client.
const CATCH_UP_QUEUE = 200

/** The error a subscription ends with (none on shutdown: it completes). */
function endError(reason: EndReason, after: number): AppError | undefined {
  switch (reason) {
    case 'token_expired':
      return unauthenticated(MESSAGES.expired)
    case 'token_revoked':
      return unauthenticated(MESSAGES.revoked)
    case 'behind':
      return new AppError('resync', `The stream fell too far behind: resume after ${after}`)
    case 'interrupted':
      return new AppError('resync', `The stream was interrupted: resume after ${after}`)
    case 'shutdown':
      return undefined
  }
}

/**
 * An opened stream as a GraphQL subscription's source (Yoga sends it over SSE). It yields events
 * until the client leaves, the process stops (it completes), or the stream ends with an error the
 * client acts on: `UNAUTHENTICATED` when the token expires or is revoked, `RESYNC` when it fell
 * too far behind. Whatever response carries it, once that response is over the stream is closed
 * and its slot freed: one Yoga refused (406, an error) never pulls from it.
 */
export function eventIterator<T>(ctx: RequestContext, start: StreamStart, parse: (event: StoredEvent) => T): AsyncIterableIterator<StreamItem<T>> {
  const { response } = ctx
  const queue: StoredEvent[] = []
  // The queued events' JSON, in characters: with what the response has not sent, the bytes held.
  let queuedSize = 0
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
  const finish = (error: AppError | undefined) => {
    done = true
    final = error
    release()
    wake()
  }
  const stream = follow(ctx, start, {
    // Yoga writes only what the socket takes, so a client that stopped reading shows as events
    // piling up here, past what its response holds unsent.
    behind: (incoming) => queue.length + incoming > MAX_QUEUED_EVENTS || queuedSize + (response?.buffered ?? 0) > MAX_BUFFERED_BYTES,
    write: (events) => {
      queue.push(...events)
      for (const event of events) queuedSize += event.payload.length
      wake()
      if (queue.length >= CATCH_UP_QUEUE) return new Promise<void>((resolve) => (wakeProducer = resolve))
    },
    end: (reason, after) => {
      finish(endError(reason, after))
      // A client that stopped reading never takes the end: not waited for, as on SSE.
      response?.cutUnlessFinished(endGraceMs(ctx))
    },
  })
  const stop = (): Promise<IteratorResult<StreamItem<T>>> => {
    stream.close()
    finish(undefined)
    queue.length = 0
    queuedSize = 0
    return Promise.resolve({ value: undefined, done: true })
  }
  response?.onClose(() => void stop())
  return {
    next: async () => {
      for (;;) {
        const event = queue.shift()
        if (event) {
          queuedSize -= event.payload.length
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
