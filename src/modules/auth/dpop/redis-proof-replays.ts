import { Redis } from 'ioredis'
import type { Logger } from 'pino'

import { AppError } from '../../../core/errors.ts'

const KEY_PREFIX = 'dpop:'
// How long one Redis error is not logged again: a Redis outage is one line a minute, not one per call.
const ERROR_LOG_INTERVAL_MS = 60_000

/**
 * The proofs seen, in Redis when the service is configured with it (docs/dpop.md, "Replays"): one
 * `SET key 1 NX EX ttl` per proof, which Redis answers atomically for every instance, and which
 * expires by itself when the proof's window has passed. Unlike the rate limits, this never falls
 * back to counting in the process: while Redis does not answer, DPoP requests are 503, since a
 * replay check that fails open would accept a stolen proof.
 */
export class RedisProofReplays {
  readonly #redis: Redis
  #loggedAt = 0

  constructor(
    url: string,
    private readonly logger: Logger,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.#redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    })
    // An 'error' event without a listener would crash the process.
    this.#redis.on('error', (err) => this.#failed(err))
  }

  async first(jkt: string, jti: string, until: number): Promise<boolean> {
    const ttl = Math.max(1, until - this.now())
    try {
      return (await this.#redis.set(`${KEY_PREFIX}${jkt}:${jti}`, '1', 'EX', ttl, 'NX')) === 'OK'
    } catch (error) {
      this.#failed(error)
      throw new AppError('service_unavailable', 'The service is temporarily unavailable', { headers: { 'retry-after': '5' }, cause: error })
    }
  }

  /** Keys expire by themselves: nothing to purge. */
  purge(): Promise<void> {
    return Promise.resolve()
  }

  start(): void {}

  async stop(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect())
  }

  #failed(err: unknown): void {
    if (Date.now() - this.#loggedAt < ERROR_LOG_INTERVAL_MS) return
    this.#loggedAt = Date.now()
    this.logger.warn({ err }, 'DPoP replays: Redis did not answer; DPoP requests are refused (503) until it does')
  }
}
