import { sql } from 'kysely'

import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'

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

// Rows per delete statement: a week of a busy exchange is purged in short statements, not one
// that holds its locks and its WAL for minutes.
const PURGE_BATCH = 10_000

/** Deletes events created before `cutoff` (a `timestamp(6)` text in UTC), in batches; returns how many went. */
export async function deleteEventsBefore(db: Db, cutoff: string): Promise<number> {
  let deleted = 0
  for (const [table, key] of [
    ['tenant_events', 'tenant_id'],
    ['market_events', 'symbol'],
  ] as const) {
    for (;;) {
      const result = await sql`
        delete from ${sql.table(table)} where (${sql.ref(key)}, sequence) in (
          select ${sql.ref(key)}, sequence from ${sql.table(table)} where created_at < ${cutoff}::timestamp(6) limit ${PURGE_BATCH})`.execute(db)
      const count = Number(result.numAffectedRows ?? 0n)
      deleted += count
      if (count < PURGE_BATCH) break
    }
  }
  return deleted
}
