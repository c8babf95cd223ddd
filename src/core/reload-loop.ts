/**
 * A background refresh of process-local state that never overlaps itself: `run()` starts a load or
 * joins the one in flight; `start` runs it every `intervalMs` (a failure is reported and the next
 * tick tries again); `stop` ends the ticks and waits for a load in flight, so the database can
 * close under it.
 */
export class ReloadLoop {
  #inFlight: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined

  constructor(private readonly load: () => Promise<void>) {}

  /** The load in flight, if any. */
  get inFlight(): Promise<void> | undefined {
    return this.#inFlight
  }

  run(): Promise<void> {
    this.#inFlight ??= this.load().finally(() => {
      this.#inFlight = undefined
    })
    return this.#inFlight
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    clearInterval(this.#timer)
    this.#timer = setInterval(() => void this.run().catch(onError), intervalMs)
    this.#timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#inFlight?.catch(() => {})
  }
}
