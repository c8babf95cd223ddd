/**
 * Runs tasks of one key one after the other in this process. Every withdrawal change of one
 * account waits for that account's row lock in the database anyway; queued here first, a burst of
 * them holds one pooled connection per account and process instead of one each, so it never
 * starves the pool (whose wait is bounded) while the locks are handed on (docs/accounts.md,
 * "Withdrawals").
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve()
    const result = previous.then(task)
    const tail = result.catch(() => undefined)
    this.#tails.set(key, tail)
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }

  /** Keys with tasks queued or running (for tests). */
  get size(): number {
    return this.#tails.size
  }
}

/** The one queue of this process's withdrawal changes, keyed by account. */
export const accountQueue = new KeyedQueue()

export const accountKey = (tenantId: string, currency: string) => `${tenantId} ${currency}`
