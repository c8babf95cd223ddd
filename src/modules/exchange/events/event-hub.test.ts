import fc from 'fast-check'
import { describe, expect, it, onTestFinished, vi } from 'vitest'

import { EventHub, type EventSink } from './event-hub.ts'
import type { StoredEvent, StreamKey } from './events.repository.ts'

/**
 * The hub's promise (docs/events.md): whatever the interleaving of commits, subscriptions, lost
 * wake-ups, polls and slow reads, every subscriber receives exactly the events after its starting
 * point, in order, each once. Checked over generated sequences against an in-memory events table
 * whose reads take a random number of turns, so commits land in the middle of them.
 */

const KEYS: StreamKey[] = ['t:a', 't:b', 'm:X-Y']

class MemoryEvents {
  readonly streams = new Map<StreamKey, StoredEvent[]>(KEYS.map((key) => [key, []]))
  delays: number[] = []

  commit(key: StreamKey): void {
    const events = this.streams.get(key)!
    const sequence = events.length + 1
    events.push({ sequence, type: 'order.created', created_at: '', payload: `{"sequence":${sequence}}` })
  }

  last(key: StreamKey): number {
    return this.streams.get(key)!.length
  }

  async #turns(): Promise<void> {
    const turns = this.delays.shift() ?? 0
    for (let i = 0; i < turns; i++) await Promise.resolve()
  }

  read = async (key: StreamKey, after: number, limit: number) => {
    await this.#turns()
    // What a statement sees is what had committed when it ran.
    const seen = this.streams
      .get(key)!
      .filter((e) => e.sequence > after)
      .slice(0, limit)
    await this.#turns()
    return seen
  }

  lastSequences = async (keys: readonly StreamKey[]) => {
    await this.#turns()
    return new Map(keys.map((key) => [key, this.last(key)]))
  }
}

interface Recorder {
  key: StreamKey
  after: number
  got: number[]
  close: () => void
  closed: boolean
}

const step = fc.oneof(
  fc.record({ kind: fc.constant('commit' as const), key: fc.constantFrom(...KEYS), wake: fc.boolean(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('subscribe' as const), key: fc.constantFrom(...KEYS), back: fc.integer({ min: 0, max: 5 }), slow: fc.boolean() }),
  fc.record({ kind: fc.constant('close' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('poll' as const) }),
  fc.record({ kind: fc.constant('turns' as const), count: fc.integer({ min: 0, max: 6 }) }),
)

describe('EventHub', () => {
  it('delivers every event after the starting point exactly once, in order, however commits and reads interleave', async () => {
    // Slow sinks and the quiet rounds wait on timers: faked, so 200 runs do not idle for real milliseconds.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    onTestFinished(() => void vi.useRealTimers())
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 200 }), async (steps, delays) => {
        const table = new MemoryEvents()
        table.delays = [...delays]
        const hub = new EventHub(table, { warn: () => {} }, { pollMs: 60_000, maxStreamsPerClient: 100 })
        const recorders: Recorder[] = []
        for (const s of steps) {
          if (s.kind === 'commit') {
            for (let i = 0; i < s.count; i++) table.commit(s.key)
            // A wake-up may be lost (a dropped notification): the poll catches up.
            if (s.wake) hub.wake([s.key])
          } else if (s.kind === 'subscribe') {
            const after = Math.max(0, table.last(s.key) - s.back)
            const recorder: Recorder = { key: s.key, after, got: [], close: () => {}, closed: false }
            const sink: EventSink = {
              deliver: (events) => {
                recorder.got.push(...events.map((e) => e.sequence))
                if (s.slow) return new Promise((resolve) => setTimeout(resolve, 0))
              },
              end: () => {
                recorder.closed = true
              },
            }
            const subscription = hub.subscribe(s.key, after, sink)
            recorder.close = () => {
              recorder.closed = true
              subscription.close()
            }
            recorders.push(recorder)
          } else if (s.kind === 'close') {
            const open = recorders.filter((r) => !r.closed)
            if (open.length) open[s.pick % open.length]!.close()
          } else if (s.kind === 'poll') await hub.poll()
          else for (let i = 0; i < s.count; i++) await Promise.resolve()
          // Every received sequence list is contiguous from the starting point, whatever has happened so far.
          for (const r of recorders) expect(r.got).toEqual(r.got.map((_, i) => r.after + i + 1))
        }
        // Quiet: a poll and enough turns let every open subscriber catch up with everything committed.
        for (let round = 0; round < 20; round++) {
          await hub.poll()
          await vi.advanceTimersByTimeAsync(1)
        }
        for (const r of recorders) {
          expect(r.got).toEqual(r.got.map((_, i) => r.after + i + 1))
          if (!r.closed) expect(r.got.length).toBe(table.last(r.key) - r.after)
        }
        hub.close()
      }),
      { numRuns: 200 },
    )
  }, 60_000)

  it('reads a live stream once per wake-up, however many subscribers it has', async () => {
    const table = new MemoryEvents()
    let reads = 0
    const counting = {
      ...table,
      read: (key: StreamKey, after: number, limit: number) => (reads++, table.read(key, after, limit)),
      lastSequences: table.lastSequences,
    }
    const hub = new EventHub(counting, { warn: () => {} }, { pollMs: 60_000, maxStreamsPerClient: 1000 })
    const received: number[][] = []
    for (let i = 0; i < 100; i++) {
      const got: number[] = []
      received.push(got)
      hub.subscribe('t:a', 0, { deliver: (events) => void got.push(...events.map((e) => e.sequence)), end: () => {} })
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
    reads = 0
    table.commit('t:a')
    hub.wake(['t:a'])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(reads).toBe(1)
    expect(received.every((got) => got.join() === '1')).toBe(true)
    hub.close()
  })

  it('counts as live the subscribers that caught up, until they close', async () => {
    const table = new MemoryEvents()
    table.commit('t:a')
    // A read that waits: the subscriber is still catching up meanwhile.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const hub = new EventHub(
      { ...table, read: async (...args) => (await held, table.read(...args)) },
      { warn: () => {} },
      { pollMs: 60_000, maxStreamsPerClient: 10 },
    )
    const subscription = hub.subscribe('t:a', 0, { deliver: () => {}, end: () => {} })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect([hub.size, hub.live]).toEqual([1, 0])
    release()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect([hub.size, hub.live]).toEqual([1, 1])
    subscription.close()
    expect([hub.size, hub.live]).toEqual([0, 0])
    hub.close()
  })

  it('counts stream slots per client', () => {
    const hub = new EventHub(new MemoryEvents(), { warn: () => {} }, { pollMs: 60_000, maxStreamsPerClient: 2 })
    expect([hub.acquireSlot('c'), hub.acquireSlot('c'), hub.acquireSlot('c'), hub.acquireSlot('d')]).toEqual([true, true, false, true])
    hub.releaseSlot('c')
    expect(hub.acquireSlot('c')).toBe(true)
  })
})
