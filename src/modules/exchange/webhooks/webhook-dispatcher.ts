import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'

import type { Logger } from 'pino'

import { scopeAllows } from '../../../core/auth.ts'
import type { Db } from '../../../db/database.ts'
import { TENANT_EVENT_SCOPES } from '../events/event-payloads.ts'
import { readEvents, tenantStream } from '../events/events.repository.ts'
import { openSecret, signatureHeader } from './webhook-secrets.ts'
import { type SendResult, WebhookSender } from './webhook-sender.ts'
import {
  type AttemptOutcome,
  deleteDeliveriesBefore,
  dueEndpoints,
  type EndpointRow,
  passOver,
  recordAttempt,
  releaseLease,
  storedTime,
  takeLease,
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
}

/**
 * Delivers each active endpoint's events in sequence order, at least once (docs/webhooks.md,
 * "Delivery"). Per endpoint one task at a time, across processes too (the lease on its row); an
 * attempt's outcome and the cursor are written in one statement, so a restart resumes where the
 * last recorded outcome left it. Nothing here is awaited by matching or streams: a wake-up only
 * schedules a look at the table.
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
  #ticking: Promise<void> | undefined
  #again = false
  #timer: NodeJS.Timeout | undefined
  #closed = false
  /** Stopped (`stop`): neither the timer nor a wake-up looks for due deliveries until `start`. */
  #stopped = true
  #lastPurge = 0

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
  }

  /** The dispatcher's clock: endpoints' changes are timed by it too, so a rotation's day is the deliveries' day. */
  now(): number {
    return this.#now()
  }

  start(): void {
    this.#stopped = false
    clearInterval(this.#timer)
    this.#timer = setInterval(() => this.wake(), this.options.pollMs ?? 1000)
    this.#timer.unref()
    this.wake()
  }

  /** Stops looking for due deliveries (tests that count statements); deliveries in flight finish. */
  stop(): void {
    this.#stopped = true
    clearInterval(this.#timer)
  }

  /** Something may be due (events committed, an endpoint changed): look soon, never twice at once. */
  wake(): void {
    if (this.#closed || this.#stopped) return
    if (this.#ticking) {
      this.#again = true
      return
    }
    this.#ticking = this.tick()
      .catch((err: unknown) => this.logger.warn({ err }, 'webhook dispatch failed'))
      .finally(() => {
        this.#ticking = undefined
        if (this.#again) {
          this.#again = false
          this.wake()
        }
      })
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
    for (const uid of await dueEndpoints(this.db, storedTime(now), this.#owner, [...this.#running.keys()], free)) {
      if (this.#running.has(uid) || this.#closed) continue
      const task = this.#deliver(uid)
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

  async #deliver(uid: string): Promise<void> {
    const owner = this.#owner
    try {
      for (;;) {
        if (this.#closed) return
        const now = this.#now()
        const row = await takeLease(this.db, uid, owner, storedTime(now), storedTime(now + this.#leaseMs))
        if (!row) return
        if (!row.is_active || (row.next_attempt_at !== null && row.next_attempt_at > storedTime(now))) return
        const events = await readEvents(this.db, tenantStream(row.tenant_id), row.cursor, PAGE)
        if (events.length === 0) return
        const wanted = wantedTypes(row)
        const secrets = this.#secrets(row, now)
        let cursor = row.cursor
        let failures = row.failures
        for (const event of events) {
          if (this.#closed) break
          if (!wanted.has(event.type)) continue
          // Types the endpoint does not take are passed over, in the cursor, before the next it does.
          if (event.sequence - 1 > cursor) {
            if (!(await passOver(this.db, uid, owner, cursor, event.sequence - 1))) return
            cursor = event.sequence - 1
          }
          const attempt = failures + 1
          const id = `${row.tenant_id}:${event.sequence}`
          const sentAt = this.#now()
          const timestamp = Math.floor(sentAt / 1000)
          const headers = {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(secrets, id, timestamp, event.payload),
          }
          const result = await this.#sender.send(row.url, headers, event.payload, this.#abort.signal)
          if (this.#closed && result.status === null) return
          const outcome = this.#outcome(event.sequence, cursor, attempt, result)
          if (!(await recordAttempt(this.db, uid, owner, outcome, storedTime(this.#now() + this.#leaseMs)))) return
          if (!outcome.delivered) return
          cursor = event.sequence
          failures = 0
        }
        const last = events[events.length - 1]!.sequence
        if (last > cursor && !this.#closed && !(await passOver(this.db, uid, owner, cursor, last))) return
        // A short page was the stream's end when read: the next wake-up or poll finds what came since,
        // without two more statements per run here.
        if (events.length < PAGE) return
      }
    } finally {
      await releaseLease(this.db, uid, owner).catch(() => {})
    }
  }

  #outcome(sequence: number, from: number, attempt: number, result: SendResult): AttemptOutcome {
    const now = this.#now()
    const delivered = result.error === null
    const wait = delivered ? undefined : this.#schedule[attempt - 1]
    const disabled = !delivered && wait === undefined
    return {
      sequence,
      from,
      attempt,
      statusCode: result.status,
      durationMs: result.durationMs,
      error: result.error,
      createdAt: storedTime(now),
      delivered,
      nextAttemptAt: wait === undefined ? null : storedTime(now + wait),
      disabledReason: disabled ? `Event ${sequence} failed ${attempt} times; the last: ${result.error}`.slice(0, 500) : null,
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
