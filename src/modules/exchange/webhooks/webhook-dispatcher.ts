import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'

import type { Logger } from 'pino'

import { scopeAllows } from '../../../core/auth.ts'
import type { Db } from '../../../db/database.ts'
import { TENANT_EVENT_SCOPES } from '../events/event-payloads.ts'
import { openSecret, signatureHeader } from './webhook-secrets.ts'
import { type SendResult, WebhookSender } from './webhook-sender.ts'
import {
  anyActiveEndpoint,
  type AttemptOutcome,
  type ClaimedEndpoint,
  type ClaimedEvent,
  claimEndpoints,
  deleteDeliveriesBefore,
  type EndpointRow,
  passOver,
  recordAttempts,
  releaseLease,
  storedTime,
} from './webhooks.repository.ts'

/** Waits after a failed attempt before the next one (docs/webhooks.md, "Retries"): 5 s … 12 h, then disabled. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000, 14_400_000, 43_200_000]
/** How long the previous secret still signs after a rotation. */
export const PREVIOUS_SECRET_MS = 86_400_000

const DAY_MS = 86_400_000
// Events read per endpoint at once: what an endpoint's queue holds, however far behind it is.
const PAGE = 100
const PURGE_EVERY_MS = 3_600_000

export interface WebhookDispatcherOptions {
  allowHttp: boolean
  allowPrivate: boolean
  encryptionKey: string | undefined
  retentionDays: number
  /** The clock of schedules, leases and `webhook-timestamp` (tests move it instead of waiting). */
  now?: () => number
  /** Waits between tries; after the last one fails the endpoint is disabled. */
  schedule?: readonly number[]
  /** How often due retries and missed wake-ups are looked for. */
  pollMs?: number
  /** Endpoints delivered to at once by this process: a slow receiver holds one of these, never the others'. */
  concurrency?: number
  /** How long an endpoint stays this process's without a word from it (a crashed process's endpoints are taken over after it). */
  leaseMs?: number
  /** A 2xx must come within this time. */
  timeoutMs?: number
  /**
   * Looks begin at least this far apart: the wake-ups of a burst of commits share one claim, and
   * the deliveries it starts share their records. Real time, not `now`: a spacing, not a schedule.
   */
  lookGapMs?: number
}

/**
 * Delivers each active endpoint's events in sequence order, at least once (docs/webhooks.md,
 * "Delivery"). Per endpoint one task at a time, across processes too (the lease on its row). A
 * look at the table claims the due endpoints and reads their events in one statement; an attempt's
 * outcome and the cursor are written in one statement, shared by the attempts of other endpoints
 * that ended meanwhile (each task still waits for its record before its next POST), so a restart
 * resumes where the last recorded outcome left it. Nothing here is awaited by matching or streams:
 * a wake-up only schedules a look at the table.
 */
export class WebhookDispatcher {
  readonly #owner = randomUUID()
  readonly #running = new Map<string, Promise<void>>()
  readonly #sender: WebhookSender
  readonly #abort = new AbortController()
  readonly #now: () => number
  readonly #schedule: readonly number[]
  readonly #concurrency: number
  readonly #leaseMs: number
  readonly #records: AttemptRecords
  readonly #lookGapMs: number
  #lastLook = -Infinity
  #ticking: Promise<void> | undefined
  #again = false
  #timer: NodeJS.Timeout | undefined
  #closed = false
  /** Stopped (`stop`): neither the timer nor a wake-up looks for due deliveries until `start`. */
  #stopped = true
  #lastPurge = 0
  /** Whether an active endpoint existed at the last periodic look, or one changed here since. */
  #endpointsExist = true

  constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly options: WebhookDispatcherOptions,
  ) {
    this.#now = options.now ?? Date.now
    this.#schedule = options.schedule ?? RETRY_SCHEDULE_MS
    this.#concurrency = options.concurrency ?? 32
    const timeoutMs = options.timeoutMs ?? 10_000
    this.#leaseMs = options.leaseMs ?? timeoutMs + 5_000
    // Every delivery in flight listens for the close: as many as the concurrency, by design.
    setMaxListeners(this.#concurrency + 1, this.#abort.signal)
    this.#sender = new WebhookSender({ allowHttp: options.allowHttp, allowPrivate: options.allowPrivate, timeoutMs })
    this.#records = new AttemptRecords(db, this.#owner)
    this.#lookGapMs = options.lookGapMs ?? 10
  }

  /** The dispatcher's clock: endpoints' changes are timed by it too, so a rotation's day is the deliveries' day. */
  now(): number {
    return this.#now()
  }

  start(): void {
    this.#stopped = false
    clearInterval(this.#timer)
    this.#timer = setInterval(() => void this.#poll(), this.options.pollMs ?? 1000)
    this.#timer.unref()
    this.wake()
  }

  /**
   * Events were committed (any process's): look, unless no endpoint exists anywhere. Every pass
   * of matching commits events, and each look is a statement: a service whose banks have no
   * endpoints would otherwise pay one per pass for nothing.
   */
  eventsCommitted(): void {
    if (this.#endpointsExist) this.wake()
  }

  /** The periodic look (due retries, missed wake-ups), after learning whether any endpoint exists (one made on another process). */
  async #poll(): Promise<void> {
    if (this.#closed || this.#stopped) return
    try {
      this.#endpointsExist = await anyActiveEndpoint(this.db)
    } catch (err) {
      this.logger.warn({ err }, 'webhook endpoints not read')
      this.#endpointsExist = true
    }
    if (this.#endpointsExist) this.wake()
  }

  /** Stops looking for due deliveries (tests that count statements); deliveries in flight finish. */
  stop(): void {
    this.#stopped = true
    clearInterval(this.#timer)
  }

  /** Something may be due (an endpoint changed, a delivery ended): look soon, never twice at once. */
  wake(): void {
    if (this.#closed || this.#stopped) return
    this.#endpointsExist = true
    if (this.#ticking) {
      this.#again = true
      return
    }
    this.#ticking = this.#spaced()
      // Stopped during the wait: no look (a test counting another dispatcher's statements).
      .then(() => (this.#stopped ? undefined : this.tick()))
      .catch((err: unknown) => this.logger.warn({ err }, 'webhook dispatch failed'))
      .finally(() => {
        this.#ticking = undefined
        if (this.#again) {
          this.#again = false
          this.wake()
        }
      })
  }

  /** Waits out the rest of the gap since the last look began. */
  async #spaced(): Promise<void> {
    const wait = this.#lastLook + this.#lookGapMs - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    this.#lastLook = performance.now()
  }

  /** One look: starts a task for each due endpoint, up to the concurrency. */
  async tick(): Promise<void> {
    if (this.#closed) return
    const now = this.#now()
    if (now - this.#lastPurge > PURGE_EVERY_MS) {
      this.#lastPurge = now
      await deleteDeliveriesBefore(this.db, storedTime(now - this.options.retentionDays * DAY_MS))
    }
    const free = this.#concurrency - this.#running.size
    if (free <= 0) return
    const claimed = await claimEndpoints(this.db, {
      owner: this.#owner,
      now: storedTime(now),
      expires: storedTime(now + this.#leaseMs),
      page: PAGE,
      limit: free,
      skip: [...this.#running.keys()],
    })
    for (const row of claimed) {
      const uid = row.uid
      // Claimed, so leased: a task even when closing, whose `finally` gives the lease up.
      const task = this.#deliver(row)
        .catch((err: unknown) => this.logger.warn({ err, webhook: uid }, 'webhook delivery failed'))
        .finally(() => {
          this.#running.delete(uid)
          this.wake()
        })
      this.#running.set(uid, task)
    }
  }

  /** Resolves once no delivery runs here (tests: after moving the clock and a `tick`). */
  async idle(): Promise<void> {
    while (this.#ticking || this.#running.size > 0) {
      await this.#ticking
      await Promise.all(this.#running.values())
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearInterval(this.#timer)
    this.#abort.abort()
    await this.#ticking
    await Promise.all(this.#running.values())
    this.#sender.close()
  }

  /** Delivers a claimed endpoint's page, then its next pages while they are full. */
  async #deliver(claimed: ClaimedEndpoint): Promise<void> {
    const owner = this.#owner
    const uid = claimed.uid
    let row: ClaimedEndpoint | undefined = claimed
    // Whether the lease may still be this process's: given up by the task's last statement otherwise.
    let holding = true
    try {
      while (row) {
        if (this.#closed) return
        const now = this.#now()
        if (!row.is_active || (row.next_attempt_at !== null && row.next_attempt_at > storedTime(now))) return
        const events: ClaimedEvent[] = row.pending
        if (events.length === 0) return
        // A short page was the stream's end when read: the task's last statement gives the lease up.
        const full = events.length === PAGE
        const end = events[events.length - 1]![0]
        const wanted = wantedTypes(row)
        const secrets = this.#secrets(row, now)
        let last = -1
        for (const [i, [, type]] of events.entries()) if (wanted.has(type)) last = i
        let cursor = row.cursor
        let failures = row.failures
        for (let i = 0; i <= last; i++) {
          const [sequence, type, payload] = events[i]!
          if (!wanted.has(type)) continue
          if (this.#closed) return
          const attempt = failures + 1
          const id = `${row.tenant_id}:${sequence}`
          const timestamp = Math.floor(this.#now() / 1000)
          const headers = {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(secrets, id, timestamp, payload),
          }
          const result = await this.#sender.send(row.url, headers, payload, this.#abort.signal)
          if (this.#closed && result.status === null) return
          const keep = result.error === null && (i < last || full)
          // Types the endpoint does not take are passed over in the same statement: those before
          // this event, and after it when it is the page's last wanted one.
          const to = result.error !== null ? sequence - 1 : i === last ? end : sequence
          const outcome = this.#outcome(uid, sequence, cursor, to, attempt, result, keep)
          const recorded = await this.#records.record(outcome)
          if (!recorded) return
          if (!keep) holding = false
          if (!outcome.delivered) return
          cursor = to
          failures = 0
        }
        if (last < 0) {
          if (this.#closed || !(await passOver(this.db, uid, owner, cursor, end, full))) return
          if (!full) holding = false
        }
        if (!full) return
        const at = this.#now()
        row = (await claimEndpoints(this.db, { owner, now: storedTime(at), expires: storedTime(at + this.#leaseMs), page: PAGE, limit: 1, uid }))[0]
      }
    } finally {
      if (holding) await releaseLease(this.db, uid, owner).catch(() => {})
    }
  }

  #outcome(uid: string, sequence: number, from: number, to: number, attempt: number, result: SendResult, keepLease: boolean): AttemptOutcome {
    const now = this.#now()
    const delivered = result.error === null
    const wait = delivered ? undefined : this.#schedule[attempt - 1]
    const disabled = !delivered && wait === undefined
    return {
      uid,
      sequence,
      from,
      to,
      attempt,
      statusCode: result.status,
      durationMs: result.durationMs,
      error: result.error,
      createdAt: storedTime(now),
      delivered,
      nextAttemptAt: wait === undefined ? null : storedTime(now + wait),
      disabledReason: disabled ? `Event ${sequence} failed ${attempt} times; the last: ${result.error}`.slice(0, 500) : null,
      leaseUntil: keepLease ? storedTime(now + this.#leaseMs) : null,
    }
  }

  /** The secrets that sign now: the current one, and the one before it for a day after a rotation. */
  #secrets(row: EndpointRow, now: number): string[] {
    const key = this.options.encryptionKey
    const secrets = [openSecret(row.secret, key)]
    if (row.previous_secret !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > storedTime(now)) {
      secrets.push(openSecret(row.previous_secret, key))
    }
    return secrets
  }
}

/** The types an endpoint asked for that its creator's scopes allow (TENANT_EVENT_SCOPES). */
export function wantedTypes(row: Pick<EndpointRow, 'events' | 'scopes'>): Set<string> {
  const scopes = TENANT_EVENT_SCOPES as Record<string, string>
  return new Set(row.events.filter((type) => scopes[type] !== undefined && row.scopes.some((granted) => scopeAllows(granted, scopes[type]!))))
}

interface Waiting {
  outcome: AttemptOutcome
  resolve: (recorded: boolean) => void
  reject: (error: unknown) => void
}

/**
 * Group commit of attempts: the outcomes handed in while a statement runs (or in the same turn of
 * the event loop) go together in the next one. Each endpoint has one attempt waiting at most (its
 * task waits for it), so an endpoint's record is still written before its next POST, and a crash
 * repeats at most the one event whose 2xx was not recorded yet.
 */
class AttemptRecords {
  #waiting: Waiting[] = []
  #busy = false

  constructor(
    private readonly db: Db,
    private readonly owner: string,
  ) {}

  /** Whether the attempt was kept (the endpoint still this owner's, its cursor where the task saw it). */
  record(outcome: AttemptOutcome): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ outcome, resolve, reject })
      if (this.#busy) return
      this.#busy = true
      setImmediate(() => void this.#flush())
    })
  }

  async #flush(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting
      this.#waiting = []
      try {
        const kept = await recordAttempts(
          this.db,
          this.owner,
          batch.map((w) => w.outcome),
        )
        for (const w of batch) w.resolve(kept.has(w.outcome.uid))
      } catch (error) {
        for (const w of batch) w.reject(error)
      }
    }
    this.#busy = false
  }
}
