/** Points counted for one key in its current window. */
interface Window {
  points: number
  endsAt: number
}

/** What one count says: the points counted in the key's window so far, and ms until it ends. */
export interface WindowCount {
  points: number
  msLeft: number
}

/**
 * Fixed windows counted in this process's memory, synchronously: a key's window starts at its
 * first point and lasts `windowMs` (as rate-limiter-flexible's memory limiter counts). Counting is
 * one Map lookup — no promise, no timer per key: it runs on every request. Ended windows are
 * dropped at most once per window length, so the map holds only the keys seen in about the last
 * two windows.
 */
export class WindowCounters {
  readonly #windows = new Map<string, Window>()
  #sweepAt: number

  constructor(
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.#sweepAt = clock() + windowMs
  }

  /** Adds `points` to `key`'s current window (starting one if it has none). */
  add(key: string, points: number): WindowCount {
    const now = this.clock()
    if (now >= this.#sweepAt) this.#sweep(now)
    let window = this.#windows.get(key)
    if (!window || window.endsAt <= now) {
      window = { points: 0, endsAt: now + this.windowMs }
      this.#windows.set(key, window)
    }
    window.points += points
    return { points: window.points, msLeft: window.endsAt - now }
  }

  /** `key`'s points in its current window (0 when it has none), counting nothing. */
  peek(key: string): WindowCount {
    const now = this.clock()
    const window = this.#windows.get(key)
    if (!window || window.endsAt <= now) return { points: 0, msLeft: this.windowMs }
    return { points: window.points, msLeft: window.endsAt - now }
  }

  /** Keys held: those seen within the last one or two window lengths. */
  get size(): number {
    return this.#windows.size
  }

  #sweep(now: number): void {
    this.#sweepAt = now + this.windowMs
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key)
  }
}
