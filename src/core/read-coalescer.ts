interface Waiting<V> {
  promise: Promise<V>
  resolve: (value: V) => void
  reject: (error: unknown) => void
  run: () => Promise<V>
}

interface KeyState<V> {
  running: number
  scheduled: boolean
  /** The next run of this key: not started yet, so a read may still join it. */
  waiting: Waiting<V> | undefined
}

/**
 * Identical concurrent reads share one run, and none is ever answered from a run that started
 * before it arrived: a read joins only the key's next, not-yet-started run. So each read still
 * sees every write acknowledged before it was asked for, as if it had run alone, while a burst of
 * the same list (many workers of one bank polling it) costs one statement and one rendering.
 * At most `maxRunningPerKey` runs of one key are in flight; reads arriving meanwhile gather for
 * the next. A failed run fails the reads that shared it, and only those.
 */
export class ReadCoalescer<V> {
  readonly #keys = new Map<string, KeyState<V>>()

  constructor(private readonly maxRunningPerKey = 1) {}

  /** The result of `run` for `key`; `run` must depend on nothing but the key. */
  read(key: string, run: () => Promise<V>): Promise<V> {
    let state = this.#keys.get(key)
    if (!state) {
      state = { running: 0, scheduled: false, waiting: undefined }
      this.#keys.set(key, state)
    }
    if (!state.waiting) {
      let resolve!: (value: V) => void
      let reject!: (error: unknown) => void
      const promise = new Promise<V>((res, rej) => {
        resolve = res
        reject = rej
      })
      state.waiting = { promise, resolve, reject, run }
      this.#schedule(key, state)
    }
    return state.waiting.promise
  }

  #schedule(key: string, state: KeyState<V>): void {
    if (state.scheduled || state.running >= this.maxRunningPerKey) return
    state.scheduled = true
    // One turn of the event loop gathers the reads parsed from the same batch of socket reads.
    setImmediate(() => {
      state.scheduled = false
      this.#start(key, state)
    })
  }

  #start(key: string, state: KeyState<V>): void {
    const waiting = state.waiting
    if (!waiting) return
    state.waiting = undefined
    state.running++
    let result: Promise<V>
    try {
      result = waiting.run()
    } catch (error) {
      result = Promise.reject(error)
    }
    result.then(waiting.resolve, waiting.reject).finally(() => {
      state.running--
      if (state.waiting) this.#schedule(key, state)
      else if (state.running === 0) this.#keys.delete(key)
    })
  }
}
