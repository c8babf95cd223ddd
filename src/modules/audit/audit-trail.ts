import type { Logger } from 'pino'

import type { Db } from '../../db/database.ts'
import { appendAuditRecordsAfter, type AuditEntry, type ChainHead } from './audit-chain.ts'

// Appends waiting together go in one statement, at most this many.
const MAX_BATCH = 500
// How long a record written behind an answer waits for others to share its statement: one
// statement of a few records cost the database most of what one of hundreds does.
const GATHER_MS = 10
// How often minutes that have ended are written out.
const FOLD_FLUSH_INTERVAL_MS = 5000
// Keys folded at once before they are written early: a flood of distinct addresses costs bounded memory.
const MAX_FOLDS = 10_000
const MINUTE_MS = 60_000

interface Pending {
  entry: AuditEntry
  /** Someone waits for it: it is written now, and committed durably. */
  durable: boolean
  resolve: () => void
  reject: (error: unknown) => void
}

interface Fold {
  entry: AuditEntry
  count: number
  minute: number
  first: number
  last: number
}

/**
 * The process's writer of audit records (docs/operations.md, "Audit trail"):
 * - `record` appends one record and waits until it is durably stored; `recordBehind` (a login)
 *   does not wait: its record waits up to 10 ms for others and is committed without waiting for
 *   the write-ahead log, so a burst of logins costs a few statements, not one commit each;
 * - `fold` counts repeated events (failed logins, refused addresses) per key and minute and writes
 *   one record per key and minute with `count`, `first_at` and `last_at` in its details, once the
 *   minute is over (or at `flush`/`close`): a flood of failures writes one record a minute.
 */
export class AuditTrail {
  #queue: Pending[] = []
  #writing: Promise<void> | undefined
  #folds = new Map<string, Fold>()
  #timer: NodeJS.Timeout | undefined
  #gathering: NodeJS.Timeout | undefined
  // The chain's head as this process's last append left it: the next append chains onto it in one statement.
  #head: ChainHead | undefined
  /** The clock folds are counted by (tests set a fixed one, so no attempt crosses a minute). */
  now: () => number = () => Date.now()
  /** How long a record written behind an answer waits for others (tests lengthen it to hold one back). */
  gatherMs = GATHER_MS

  constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** Appends `entry`; resolves once it is durably stored. */
  record(entry: AuditEntry): Promise<void> {
    return this.#append(entry, true)
  }

  /**
   * `record` without waiting: for what is recorded beside an answer it must not delay (a login).
   * A failed write is logged; `flush` and `close` wait for it.
   */
  recordBehind(entry: AuditEntry): void {
    this.#append(entry, false).catch((err: unknown) => this.logger.warn({ err, action: entry.action }, 'audit record not written'))
  }

  #append(entry: AuditEntry, durable: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ entry, durable, resolve, reject })
      if (durable) this.#write()
      else this.#gather()
    })
  }

  #gather(): void {
    if (this.#writing || this.#gathering) return
    this.#gathering = setTimeout(() => this.#write(), this.gatherMs)
    this.#gathering.unref()
  }

  #write(): void {
    clearTimeout(this.#gathering)
    this.#gathering = undefined
    if (this.#queue.length > 0) this.#writing ??= this.#drain()
  }

  /** Counts one occurrence of `entry` under `key` in the current minute (see the class comment). */
  fold(key: string, entry: AuditEntry): void {
    const now = this.now()
    const minute = Math.floor(now / MINUTE_MS)
    const fullKey = `${minute}|${key}`
    const fold = this.#folds.get(fullKey)
    if (fold) {
      fold.count++
      fold.last = now
      return
    }
    if (this.#folds.size >= MAX_FOLDS) this.#writeFolds(() => true)
    this.#folds.set(fullKey, { entry, count: 1, minute, first: now, last: now })
  }

  /** Writes folds of minutes that are over every few seconds, until `close`. */
  start(intervalMs = FOLD_FLUSH_INTERVAL_MS): void {
    this.#timer = setInterval(() => {
      const minute = Math.floor(this.now() / MINUTE_MS)
      this.#writeFolds((fold) => fold.minute < minute)
    }, intervalMs)
    this.#timer.unref()
  }

  /** Writes every fold (the current minute's too) and waits for every record asked for so far. */
  async flush(): Promise<void> {
    this.#writeFolds(() => true)
    await this.written()
  }

  /** Waits until every record asked for so far is written, those gathering behind an answer at once; folds stay. */
  async written(): Promise<void> {
    while (this.#queue.length > 0 || this.#writing) {
      this.#write()
      await this.#writing
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer)
    await this.flush()
  }

  #writeFolds(due: (fold: Fold) => boolean): void {
    for (const [key, fold] of this.#folds) {
      if (!due(fold)) continue
      this.#folds.delete(key)
      const details = {
        ...fold.entry.details,
        count: fold.count,
        first_at: new Date(fold.first).toISOString(),
        last_at: new Date(fold.last).toISOString(),
      }
      this.recordBehind({ ...fold.entry, details })
    }
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH)
        try {
          const appended = await appendAuditRecordsAfter(
            this.db,
            batch.map((pending) => pending.entry),
            this.#head,
            { durable: batch.some((pending) => pending.durable) },
          )
          this.#head = appended.head
          for (const pending of batch) pending.resolve()
        } catch (error) {
          // Whether it committed is unknown: the next append reads the head under its lock.
          this.#head = undefined
          for (const pending of batch) pending.reject(error)
        }
        // What arrived meanwhile gathers again, unless someone waits for a record of it.
        if (this.#queue.length < MAX_BATCH && !this.#queue.some((pending) => pending.durable)) break
      }
    } finally {
      this.#writing = undefined
      if (this.#queue.length > 0) this.#gather()
    }
  }
}
