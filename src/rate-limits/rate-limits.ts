import { createHash } from 'node:crypto'

import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

import type { Config } from '../core/config.ts'
import type { RateLimitStatus, RequestState } from '../core/context.ts'
import { AppError } from '../core/errors.ts'
import { rateLimitHeaderValues } from '../http/request-log.ts'
import type { Metrics, RateLimitName } from '../observability/metrics.ts'
import { ipRateLimitKey } from './address-keys.ts'
import { WindowCounters } from './window-counters.ts'

const WINDOW_SECONDS = 60
const DEFAULT_ANON_PER_MIN = 600
const REDIS_ERROR_LOG_INTERVAL_MS = 60_000
// After a Redis failure, how long to count in memory before trying Redis again.
const STORE_RETRY_MS = 5_000

/**
 * What a login or refresh attempt is counted against: the caller's address, and the client it
 * names together with that address. A stranger naming a client from elsewhere fills only their own
 * counters, never the ones the client's own address uses.
 */
export interface LoginKeys {
  ip?: string
  client?: { id: string; ip: string }
}

export function rateLimited(status: RateLimitStatus): AppError {
  return new AppError('rate_limited', 'Too many requests', {
    headers: { 'retry-after': String(status.resetSeconds), ...rateLimitHeaderValues({ ...status, remaining: 0 }) },
  })
}

/** Keeps, for the request's RateLimit-* headers, the tighter of what it counted so far and `status`. */
export function recordRateLimit(state: RequestState, status: RateLimitStatus | undefined): void {
  state.rateLimit = tighter(state.rateLimit, status)
}

/** The tighter of two statuses: fewer requests left, or the same number left for longer. */
export function tighter(a: RateLimitStatus | undefined, b: RateLimitStatus | undefined): RateLimitStatus | undefined {
  if (!a || !b) return a ?? b
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b
  return a.resetSeconds >= b.resetSeconds ? a : b
}

// A client id comes from a request body: anything up to 1 MiB. Keys stay short and printable.
const clientKey = (clientId: string) => (/^[A-Za-z0-9_-]{1,64}$/.test(clientId) ? clientId : `sha256:${createHash('sha256').update(clientId).digest('hex')}`)

const clientIpKey = (client: { id: string; ip: string }) => `${clientKey(client.id)}@${ipRateLimitKey(client.ip)}`

interface Limit {
  name: RateLimitName
  points: number
  /** Shared counters (Redis), when configured. */
  store: RateLimiterAbstract | undefined
  /** This process's counters: the only ones without Redis, the fallback while Redis fails. */
  memory: WindowCounters
}

/** A count's outcome: where the caller stands, or the 429 to answer when over the limit. */
type Outcome = RateLimitStatus | AppError

export interface RateLimitsOptions {
  /** Prefix of every counter key; tests use a fresh one so runs never share counters. */
  keyPrefix?: string
}

/**
 * The service's rate limits (docs/operations.md, "Rate limits"): login and refresh
 * `RATE_LIMIT_LOGIN_PER_MIN` per address and per (client id, address), where every attempt counts
 * one point and a failed one a second point; calls without a valid access token
 * `RATE_LIMIT_ANON_PER_MIN` per address; other calls `RATE_LIMIT_API_PER_MIN` per client, where a
 * GraphQL request counts one call per root mutation field. Fixed one-minute windows per key.
 *
 * Counters live in Redis when `REDIS_URL` is set, so every process shares them; otherwise in
 * memory. When Redis fails (refused, reset, or silent past its command timeout), each process
 * counts in its own memory for a few seconds before trying Redis again, and logs it: a Redis
 * outage never takes the API down, nor slows every request by a timeout.
 */
export class RateLimits {
  readonly backend: 'memory' | 'redis'
  readonly #limits: Record<RateLimitName, Limit>
  readonly #redis: Redis | undefined
  readonly #logger: Logger
  readonly #metrics: Metrics
  #storeRetryAt = 0
  #lastStoreErrorLog = 0

  constructor(
    config: Pick<Config, 'redisUrl' | 'rateLimitLoginPerMin' | 'rateLimitApiPerMin'> & Partial<Pick<Config, 'rateLimitAnonPerMin'>>,
    logger: Logger,
    metrics: Metrics,
    options: RateLimitsOptions = {},
  ) {
    this.#logger = logger
    this.#metrics = metrics
    const prefix = options.keyPrefix ?? 'exchange:rl'
    this.backend = config.redisUrl ? 'redis' : 'memory'
    const redis = config.redisUrl ? openRedis(config.redisUrl, logger, (err) => this.#storeFailed(err)) : undefined
    this.#redis = redis
    redis?.on('ready', () => {
      this.#storeRetryAt = 0
    })
    const limit = (name: RateLimitName, points: number): Limit => {
      const options = { keyPrefix: `${prefix}:${name}`, points, duration: WINDOW_SECONDS }
      return {
        name,
        points,
        store: redis && new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true }),
        memory: new WindowCounters(WINDOW_SECONDS * 1000),
      }
    }
    this.#limits = {
      login_ip: limit('login_ip', config.rateLimitLoginPerMin),
      login_client_ip: limit('login_client_ip', config.rateLimitLoginPerMin),
      anon: limit('anon', config.rateLimitAnonPerMin ?? DEFAULT_ANON_PER_MIN),
      api: limit('api', config.rateLimitApiPerMin),
    }
  }

  /**
   * Counts a login or refresh attempt (`points` attempts) against each key given, before the
   * attempt does any work. Throws `rate_limited` (429) when any of them is over its limit.
   */
  async checkLogin(keys: LoginKeys, points = 1): Promise<RateLimitStatus | undefined> {
    return settle(await this.#each(keys, (limit, key) => this.#count(limit, key, points)))
  }

  /**
   * Throws `rate_limited` (429) when any key has already used its allowance, counting nothing: for
   * a refresh, which counts against its client only once its token is proven genuine.
   */
  async peekLogin(keys: LoginKeys): Promise<void> {
    settle(await this.#each(keys, (limit, key) => this.#peek(limit, key)))
  }

  /** Points counted without a check (a failure's second point, or a proven refresh). Never throws. */
  async penaliseLogin(keys: LoginKeys, points = 1): Promise<void> {
    await this.#each(keys, (limit, key) => this.#penalise(limit, key, points))
  }

  /**
   * Counts `points` calls of an authenticated client; throws `rate_limited` (429) when they do not
   * all fit in what is left, and then takes them back: a request refused whole has done nothing, so
   * it costs nothing. In memory
   * the answer is immediate (no promise): this runs on every authenticated request.
   */
  consumeApi(clientId: string, points = 1): RateLimitStatus | Promise<RateLimitStatus> {
    const key = clientKey(clientId)
    const outcome = this.#count(this.#limits.api, key, points)
    if (outcome instanceof Promise) {
      return outcome.then(async (o) => {
        if (o instanceof AppError) await this.#penalise(this.#limits.api, key, -points)
        return statusOrThrow(o)
      })
    }
    // In memory the refund is synchronous too (`#penalise` awaits nothing there).
    if (outcome instanceof AppError) void this.#penalise(this.#limits.api, key, -points)
    return statusOrThrow(outcome)
  }

  /** Counts `points` calls made without a valid access token, per address; throws `rate_limited` (429) over the limit. */
  consumeAnon(ip: string, points = 1): RateLimitStatus | Promise<RateLimitStatus> {
    const outcome = this.#count(this.#limits.anon, ipRateLimitKey(ip), points)
    if (outcome instanceof Promise) return outcome.then(statusOrThrow)
    return statusOrThrow(outcome)
  }

  async ready(timeoutMs = 2000): Promise<boolean> {
    const redis = this.#redis
    if (!redis || redis.status === 'ready') return true
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer)
        redis.off('ready', onReady)
        resolve(ok)
      }
      const onReady = () => done(true)
      const timer = setTimeout(() => done(false), timeoutMs)
      redis.on('ready', onReady)
    })
  }

  async close(): Promise<void> {
    if (!this.#redis) return
    await this.#redis.quit().catch(() => this.#redis!.disconnect())
  }

  #each<T>(keys: LoginKeys, run: (limit: Limit, key: string) => T | Promise<T>): Promise<T[]> | T[] {
    const results: (T | Promise<T>)[] = []
    if (keys.ip !== undefined) results.push(run(this.#limits.login_ip, ipRateLimitKey(keys.ip)))
    if (keys.client !== undefined) results.push(run(this.#limits.login_client_ip, clientIpKey(keys.client)))
    return results.some((r) => r instanceof Promise) ? Promise.all(results) : (results as T[])
  }

  /** Where `key` stands, counting nothing: the 429 to answer when its allowance is used up. */
  #peek(limit: Limit, key: string): Outcome | Promise<Outcome> {
    if (!this.#usesStore(limit)) {
      const { points, msLeft } = limit.memory.peek(key)
      return this.#outcome(limit, statusOf(limit, limit.points - points, msLeft), points >= limit.points)
    }
    return limit.store!.get(key).then(
      (res) => {
        const used = res?.consumedPoints ?? 0
        return this.#outcome(limit, statusOf(limit, limit.points - used, res?.msBeforeNext ?? WINDOW_SECONDS * 1000), used >= limit.points)
      },
      (error: unknown) => {
        this.#storeFailing(error)
        return this.#peek(limit, key)
      },
    )
  }

  /** Counts `points` for `key`: on the shared counters, or on this process's while they fail. */
  #count(limit: Limit, key: string, points: number): Outcome | Promise<Outcome> {
    return this.#usesStore(limit) ? this.#countShared(limit, key, points) : this.#countHere(limit, key, points)
  }

  #countHere(limit: Limit, key: string, points: number): Outcome {
    const { points: used, msLeft } = limit.memory.add(key, points)
    return this.#outcome(limit, statusOf(limit, limit.points - used, msLeft), used > limit.points)
  }

  async #countShared(limit: Limit, key: string, points: number): Promise<Outcome> {
    try {
      const res = await limit.store!.consume(key, points)
      return this.#outcome(limit, statusOf(limit, res.remainingPoints, res.msBeforeNext), false)
    } catch (error) {
      if (error instanceof RateLimiterRes) return this.#outcome(limit, statusOf(limit, error.remainingPoints, error.msBeforeNext), true)
      this.#storeFailing(error)
      return this.#countHere(limit, key, points)
    }
  }

  #outcome(limit: Limit, status: RateLimitStatus, over: boolean): Outcome {
    if (!over) return status
    this.#metrics.rateLimitRejected(limit.name)
    return rateLimited(status)
  }

  async #penalise(limit: Limit, key: string, points: number): Promise<void> {
    if (this.#usesStore(limit)) {
      try {
        await (points < 0 ? limit.store!.reward(key, -points) : limit.store!.penalty(key, points))
        return
      } catch (error) {
        this.#storeFailing(error)
      }
    }
    limit.memory.add(key, points)
  }

  #usesStore(limit: Limit): boolean {
    return limit.store !== undefined && Date.now() >= this.#storeRetryAt
  }

  /** The shared counters failed: count in this process for a while before trying them again. */
  #storeFailing(error: unknown): void {
    this.#storeRetryAt = Date.now() + STORE_RETRY_MS
    this.#storeFailed(error)
  }

  #storeFailed(err: unknown): void {
    const now = Date.now()
    if (now - this.#lastStoreErrorLog < REDIS_ERROR_LOG_INTERVAL_MS) return
    this.#lastStoreErrorLog = now
    this.#logger.warn({ err }, 'rate limit store failed: counting in this process until it answers')
  }
}

/** Where a caller stands with `remainingPoints` left in a window that ends in `msLeft`. */
function statusOf(limit: Limit, remainingPoints: number, msLeft: number): RateLimitStatus {
  return { limit: limit.points, remaining: Math.max(0, remainingPoints), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) }
}

/** The tightest status of several counts, or the refusal that lasts longest among them. */
function settle(outcomes: (Outcome | undefined)[]): RateLimitStatus | undefined {
  let refused: AppError | undefined
  let status: RateLimitStatus | undefined
  for (const outcome of outcomes) {
    if (outcome === undefined) continue
    if (!(outcome instanceof AppError)) status = tighter(status, outcome)
    else if (!refused || Number(outcome.headers?.['retry-after']) > Number(refused.headers?.['retry-after'])) refused = outcome
  }
  if (refused) throw refused
  return status
}

function statusOrThrow(outcome: Outcome): RateLimitStatus {
  if (outcome instanceof AppError) throw outcome
  return outcome
}

function openRedis(url: string, logger: Logger, onError: (err: unknown) => void): Redis {
  const redis = new Redis(url, {
    // Fail fast while disconnected, so the in-memory insurance answers instead of a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  })
  // An 'error' event without a listener would crash the process.
  redis.on('error', onError)
  redis.on('ready', () => logger.info('rate limits: Redis connected'))
  return redis
}
