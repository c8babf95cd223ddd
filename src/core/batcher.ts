export interface BatcherOptions {
  /** Most items in one call of `run`. */
  maxBatchSize: number
  /** Most calls of `run` in flight at once (keep below the database pool size). */
  maxConcurrentBatches: number
  /**
   * When a batch fails with an error this accepts, each of its items is run again alone, so one
   * bad item (a constraint it breaks) cannot fail the others. Only for errors that prove the batch
   * changed nothing — a failed statement is atomic; a lost connection does not prove it.
   */
  retryAlone?: (error: unknown) => boolean
}

interface Pending<In, Out> {
  item: In
  resolve: (out: Out) => void
  reject: (error: unknown) => void
}

/**
 * Group commit for hot writes: requests arriving while earlier batches are in flight are sent
 * together, as ONE statement (and so one commit) for many callers. Under light load an item runs
 * alone after one turn of the event loop; under heavy load batches grow on their own, up to
 * `maxBatchSize`. Each caller's promise settles only with its own item's outcome, after the
 * statement carrying it returned — nothing is acknowledged before it is committed.
 */
export class Batcher<In, Out> {
  #queue: Pending<In, Out>[] = []
  #inFlight = 0
  #scheduled = false

  constructor(
    /** Runs many items as one unit of work; returns one outcome per item, in order. */
    private readonly run: (items: readonly In[]) => Promise<readonly Out[]>,
    private readonly options: BatcherOptions,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject })
      this.#schedule()
    })
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.options.maxConcurrentBatches) return
    this.#scheduled = true
    // One turn of the event loop gathers every request parsed from the same batch of socket reads.
    setImmediate(() => {
      this.#scheduled = false
      this.#flush()
    })
  }

  #flush(): void {
    while (this.#queue.length > 0 && this.#inFlight < this.options.maxConcurrentBatches) {
      const batch = this.#queue.splice(0, this.options.maxBatchSize)
      this.#inFlight++
      void this.#runBatch(batch).finally(() => {
        this.#inFlight--
        if (this.#queue.length > 0) this.#schedule()
      })
    }
  }

  async #runBatch(batch: Pending<In, Out>[]): Promise<void> {
    try {
      const outcomes = await this.run(batch.map((p) => p.item))
      if (outcomes.length !== batch.length) throw new Error(`batch of ${batch.length} returned ${outcomes.length} outcomes`)
      batch.forEach((p, i) => p.resolve(outcomes[i]!))
    } catch (error) {
      if (batch.length > 1 && this.options.retryAlone?.(error)) {
        await Promise.all(batch.map((p) => this.#runBatch([p])))
        return
      }
      for (const p of batch) p.reject(error)
    }
  }
}
