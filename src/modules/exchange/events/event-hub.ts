import type { Logger } from 'pino'

import type { StoredEvent, StreamKey } from './events.repository.ts'

/** Where the hub reads events: the events tables (see events.repository.ts). */
export interface EventReader {
  read: (key: StreamKey, after: number, limit: number) => Promise<StoredEvent[]>
  lastSequences: (keys: readonly StreamKey[]) => Promise<Map<StreamKey, number>>
}

/** One open stream's face: an SSE response or a GraphQL subscription. */
export interface EventSink {
  /**
   * Events after the last ones delivered, in sequence order, without a gap or a repeat. While the
   * stream catches up the hub waits for the returned promise before reading on (backpressure); once
   * live it does not wait, and the sink bounds what it holds (docs/events.md, "Slow consumers").
   */
  deliver: (events: readonly StoredEvent[]) => void | Promise<void>
  /** The hub ends the stream: the process is shutting down, or the stream's events could not be read. */
  end: (reason: 'shutdown' | 'failed') => void
}

export interface Subscription {
  /** The last sequence handed to the sink. */
  readonly delivered: number
  close: () => void
}

export interface EventHubOptions {
  /** How often every followed stream's last sequence is compared with what was delivered: the bound on a lost wake-up. */
  pollMs: number
  maxStreamsPerClient: number
}

// Events read per statement by a stream catching up, and by the hub for its live streams.
const CATCH_UP_PAGE = 200
const LIVE_PAGE = 500
// Streams whose last sequences one poll statement reads.
const POLL_BATCH = 1000

class Subscriber {
  live = false
  closed = false

  constructor(
    readonly key: StreamKey,
    public sent: number,
    readonly sink: EventSink,
  ) {}
}

/** The hub's state of one followed stream. */
class FollowedStream {
  /** The last sequence read for the live subscribers; undefined while none is live. */
  cursor: number | undefined
  /** Wake-ups so far: a subscriber catching up reads again if one arrived during its read. */
  wakes = 0
  reading = false
  again = false
  readonly subscribers = new Set<Subscriber>()

  hasLive(): boolean {
    for (const subscriber of this.subscribers) if (subscriber.live) return true
    return false
  }
}

/**
 * Fans events out to every open stream of this process (docs/events.md). A stream first catches up
 * on its own, reading the events table after the sequence it resumes from; then it goes live, and
 * the hub reads each followed stream's new events ONCE per wake-up, whatever the number of its
 * subscribers, and hands each subscriber those after what it was last given. Wake-ups come from
 * this process's matching passes, from other processes' notifications, and from a poll of the last
 * sequences, so a lost wake-up delays events by at most one poll and never loses them.
 */
export class EventHub {
  readonly #streams = new Map<StreamKey, FollowedStream>()
  readonly #slots = new Map<string, number>()
  #poll: NodeJS.Timeout | undefined
  #polling = false
  #closed = false

  constructor(
    private readonly reader: EventReader,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly options: EventHubOptions,
  ) {}

  start(): void {
    this.#poll ??= setInterval(() => void this.poll(), this.options.pollMs)
    this.#poll.unref()
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Open streams in this process. */
  get size(): number {
    let size = 0
    for (const stream of this.#streams.values()) size += stream.subscribers.size
    return size
  }

  /** Open streams that caught up and now take each wake-up's events (what a test waits for before it floods one). */
  get live(): number {
    let live = 0
    for (const stream of this.#streams.values()) for (const subscriber of stream.subscribers) if (subscriber.live && !subscriber.closed) live++
    return live
  }

  /** Takes one of the client's stream slots; false when all `maxStreamsPerClient` are taken. */
  acquireSlot(clientId: string): boolean {
    const open = this.#slots.get(clientId) ?? 0
    if (open >= this.options.maxStreamsPerClient) return false
    this.#slots.set(clientId, open + 1)
    return true
  }

  releaseSlot(clientId: string): void {
    const open = (this.#slots.get(clientId) ?? 1) - 1
    if (open > 0) this.#slots.set(clientId, open)
    else this.#slots.delete(clientId)
  }

  /** Delivers `key`'s events after `after` to `sink`: the stored ones, then each new one as it commits. */
  subscribe(key: StreamKey, after: number, sink: EventSink): Subscription {
    let stream = this.#streams.get(key)
    if (!stream) this.#streams.set(key, (stream = new FollowedStream()))
    const subscriber = new Subscriber(key, after, sink)
    stream.subscribers.add(subscriber)
    void this.#catchUp(stream, subscriber)
    const followed = stream
    return {
      get delivered() {
        return subscriber.sent
      },
      close: () => this.#remove(followed, subscriber),
    }
  }

  /** New events were committed in these streams. */
  wake(keys: Iterable<StreamKey>): void {
    for (const key of keys) {
      const stream = this.#streams.get(key)
      if (!stream) continue
      stream.wakes++
      void this.#read(key, stream)
    }
  }

  /** Every followed stream may have new events (a notification connection came back). */
  wakeAll(): void {
    this.wake([...this.#streams.keys()])
  }

  /** Compares every live stream's last sequence with what was read, and reads those behind. */
  async poll(): Promise<void> {
    if (this.#polling || this.#closed) return
    this.#polling = true
    try {
      const keys = [...this.#streams].filter(([, stream]) => stream.cursor !== undefined).map(([key]) => key)
      for (let i = 0; i < keys.length; i += POLL_BATCH) {
        const last = await this.reader.lastSequences(keys.slice(i, i + POLL_BATCH))
        for (const [key, sequence] of last) {
          const stream = this.#streams.get(key)
          if (stream?.cursor !== undefined && sequence > stream.cursor) this.wake([key])
        }
      }
    } catch (err) {
      this.logger.warn({ err }, 'event poll failed')
    } finally {
      this.#polling = false
    }
  }

  /** Ends every stream (shutdown: clients reconnect elsewhere and resume by id). */
  close(): void {
    this.#closed = true
    clearInterval(this.#poll)
    for (const stream of this.#streams.values()) {
      for (const subscriber of stream.subscribers) {
        subscriber.closed = true
        subscriber.sink.end('shutdown')
      }
    }
    this.#streams.clear()
  }

  async #catchUp(stream: FollowedStream, subscriber: Subscriber): Promise<void> {
    try {
      for (;;) {
        if (subscriber.closed) return
        const wakes = stream.wakes
        const page = await this.reader.read(subscriber.key, subscriber.sent, CATCH_UP_PAGE)
        if (subscriber.closed) return
        if (page.length > 0) {
          // Gapless by construction; a hole means the retention purge took events under the stream.
          if (page[0]!.sequence !== subscriber.sent + 1) throw new Error(`${subscriber.key} has no event ${subscriber.sent + 1}`)
          subscriber.sent = page.at(-1)!.sequence
          await subscriber.sink.deliver(page)
          if (page.length === CATCH_UP_PAGE) continue
        }
        if (subscriber.closed) return
        // Synchronous from here: no fan-out can run between these checks and going live.
        if (stream.wakes !== wakes) continue
        if (stream.cursor !== undefined && stream.cursor > subscriber.sent) continue
        stream.cursor ??= subscriber.sent
        subscriber.live = true
        return
      }
    } catch (err) {
      if (subscriber.closed) return
      this.logger.warn({ err, stream: subscriber.key }, 'event stream could not catch up')
      this.#remove(stream, subscriber)
      subscriber.sink.end('failed')
    }
  }

  async #read(key: StreamKey, stream: FollowedStream): Promise<void> {
    if (stream.reading) {
      stream.again = true
      return
    }
    if (stream.cursor === undefined) return
    stream.reading = true
    try {
      do {
        stream.again = false
        const page = await this.reader.read(key, stream.cursor, LIVE_PAGE)
        if (stream.cursor === undefined || this.#streams.get(key) !== stream) return
        if (page.length > 0) {
          stream.cursor = Math.max(stream.cursor, page.at(-1)!.sequence)
          this.#fanOut(stream, page)
        }
        if (page.length === LIVE_PAGE) stream.again = true
      } while (stream.again)
    } catch (err) {
      // The next wake-up or poll reads again from the same cursor.
      this.logger.warn({ err, stream: key }, 'event read failed')
    } finally {
      stream.reading = false
    }
  }

  #fanOut(stream: FollowedStream, page: readonly StoredEvent[]): void {
    for (const subscriber of stream.subscribers) {
      if (!subscriber.live || subscriber.closed) continue
      let first = 0
      while (first < page.length && page[first]!.sequence <= subscriber.sent) first++
      if (first === page.length) continue
      if (page[first]!.sequence !== subscriber.sent + 1) {
        // Cannot happen while the cursor only moves forward; catching up again is still correct.
        subscriber.live = false
        void this.#catchUp(stream, subscriber)
        continue
      }
      const fresh = first === 0 ? page : page.slice(first)
      subscriber.sent = fresh.at(-1)!.sequence
      void Promise.resolve(subscriber.sink.deliver(fresh)).catch((err: unknown) => {
        this.logger.warn({ err, stream: subscriber.key }, 'event delivery failed')
        this.#remove(stream, subscriber)
        subscriber.sink.end('failed')
      })
    }
  }

  #remove(stream: FollowedStream, subscriber: Subscriber): void {
    if (subscriber.closed && !stream.subscribers.has(subscriber)) return
    subscriber.closed = true
    stream.subscribers.delete(subscriber)
    if (stream.subscribers.size === 0) {
      if (this.#streams.get(subscriber.key) === stream) this.#streams.delete(subscriber.key)
      stream.cursor = undefined
    } else if (!stream.hasLive()) stream.cursor = undefined
  }
}
