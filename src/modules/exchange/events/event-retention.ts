import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'
import { deleteEventsBefore } from './events.repository.ts'

const DAY_MS = 86_400_000

/**
 * Deletes events older than `EVENT_RETENTION_DAYS`, at start and then periodically. A client
 * resuming from before what is kept is answered 410 `events_expired` (see events.ts); streams'
 * counters are kept, so sequences never restart.
 */
export class EventRetention {
  readonly #loop: ReloadLoop

  constructor(db: Db, days: number, now: () => number = Date.now) {
    this.#loop = new ReloadLoop(async () => {
      await deleteEventsBefore(db, cutoff(now() - days * DAY_MS))
    })
  }

  /** Purges now, or joins the purge in flight. */
  run(): Promise<void> {
    return this.#loop.run()
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    void this.run().catch(onError)
    this.#loop.start(intervalMs, onError)
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }
}

/** A `timestamp(6)` text in UTC, as events' `created_at` is stored. */
const cutoff = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '')
