import { randomUUID } from 'node:crypto'

import type { Logger } from 'pino'

import type { Config } from '../core/config.ts'
import type { Services } from '../core/context.ts'
import type { Page } from '../core/lists.ts'
import { ReadCoalescer } from '../core/read-coalescer.ts'
import { type DatabaseHandle, type Db, openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { listenForNotifications, type NotificationListener } from '../db/notifications.ts'
import { AuditTrail } from '../modules/audit/audit-trail.ts'
import { AddressLists } from '../modules/auth/addresses/allowed-addresses.ts'
import { Dpop } from '../modules/auth/dpop/dpop.ts'
import { PROOF_PURGE_INTERVAL_MS, ProofReplays } from '../modules/auth/dpop/proof-replays.ts'
import { RedisProofReplays } from '../modules/auth/dpop/redis-proof-replays.ts'
import { countPlainKeys, KEY_RELOAD_INTERVAL_MS, KeyStore } from '../modules/auth/keys/signing-keys.ts'
import { REVOCATION_REFRESH_INTERVAL_MS, RevocationCache } from '../modules/auth/sessions/revocations.ts'
import { sessionWriteBatches, SessionWrites } from '../modules/auth/sessions/session-writes.ts'
import { TokenVerifier } from '../modules/auth/tokens/token-verifier.ts'
import { CANCEL_DEADLINE_SWEEP_MS, CancelDeadlines } from '../modules/exchange/cancel-after/cancel-after.ts'
import { decodeNotification } from '../modules/exchange/event-log/notifications.ts'
import { EventRetention } from '../modules/exchange/event-log/retention.ts'
import { EventHub } from '../modules/exchange/events/event-hub.ts'
import { EVENTS_CHANNEL, lastSequences, readEvents } from '../modules/exchange/events/events.repository.ts'
import { MarketDay } from '../modules/exchange/market-data/market-day.ts'
import { GTD_EXPIRY_SWEEP_MS, Matching } from '../modules/exchange/matching/matching.ts'
import type { OrderRow } from '../modules/exchange/orders/orders.repository.ts'
import { CATALOG_POLL_INTERVAL_MS, SymbolsCache } from '../modules/exchange/symbols/caches/symbols-cache.ts'
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../modules/exchange/webhooks/webhook-dispatcher.ts'
import { Metrics } from '../observability/metrics.ts'
import { RateLimits } from '../rate-limits/rate-limits.ts'

/** Long-lived, process-wide dependencies, built once at start: what `ctx.services` holds. */
export interface AppServices {
  config: Config
  database: DatabaseHandle
  db: Db
  keys: KeyStore
  revocations: RevocationCache
  verifier: TokenVerifier
  /** DPoP proofs and their replays (docs/dpop.md). */
  dpop: Dpop
  proofReplays: ProofReplays | RedisProofReplays
  logger: Logger
  rateLimits: RateLimits
  metrics: Metrics
  symbolsCache: SymbolsCache
  sessionWrites: SessionWrites
  /** Order placement and cancellation, matched per symbol (see Matching). */
  matching: Matching
  /** Identical concurrent order lists share one statement (see ReadCoalescer). */
  orderLists: ReadCoalescer<Page<OrderRow>>
  /** Every open event stream of this process (docs/events.md). */
  events: EventHub
  /** Wake-ups from other processes' matching passes (PostgreSQL only). */
  eventNotifications: NotificationListener | undefined
  eventRetention: EventRetention
  /** The market's day and clock: the reference price roll, candle and ticker windows (docs/market-data.md). */
  marketDay: MarketDay
  /** Appends audit records, folding repeated failures (docs/operations.md, "Audit trail"). */
  audit: AuditTrail
  /** Clients' address allow-lists, reloaded with the revocations (docs/operations.md, "Address allow-lists"). */
  addresses: AddressLists
  /** Delivers webhooks (docs/webhooks.md). */
  webhooks: WebhookDispatcher
  /** Cancel on disconnect: the sweep of deadlines that passed, and its clock (docs/api.md, "Cancel on disconnect"). */
  cancelDeadlines: CancelDeadlines
  /** How often the background reloads run (what `openServices` was given, else the defaults). */
  intervals: ReloadIntervals
}

/** How often each background reload of process-local state runs, in milliseconds. */
export interface ReloadIntervals {
  /** Signing keys: a rotation done elsewhere is used for signing within this time. */
  keys: number
  /** Revoked sessions and inactive clients: docs/api.md promises every process within 5 s. */
  revocations: number
  /** The symbol catalog's fingerprint: a change elsewhere drops the cached lists. */
  catalog: number
  /** Every followed event stream's last sequence: the longest a lost wake-up delays an event. */
  eventPoll: number
  /** Deletes events older than EVENT_RETENTION_DAYS. */
  eventPurge: number
  /** Looks for cancel-after deadlines that passed (docs/api.md, "Cancel on disconnect": within 1 s). */
  cancelDeadlines: number
  /** Cancels gtd orders whose `expire_at` passed (docs/matching.md: within 1 s). */
  gtdExpiry: number
}

export const DEFAULT_RELOAD_INTERVALS: Readonly<ReloadIntervals> = {
  keys: KEY_RELOAD_INTERVAL_MS,
  revocations: REVOCATION_REFRESH_INTERVAL_MS,
  catalog: CATALOG_POLL_INTERVAL_MS,
  eventPoll: 1000,
  eventPurge: 3_600_000,
  cancelDeadlines: CANCEL_DEADLINE_SWEEP_MS,
  gtdExpiry: GTD_EXPIRY_SWEEP_MS,
}

export interface OpenServicesOptions {
  /** Shorter reloads, for tests that wait for a change made elsewhere to be picked up. */
  intervals?: Partial<ReloadIntervals>
  /** The webhook dispatcher's clock and retry schedule (tests move the clock instead of waiting). */
  webhooks?: Pick<WebhookDispatcherOptions, 'now' | 'schedule' | 'leaseMs'>
}

declare module '../core/context.ts' {
  // The services every request context carries (see the note on `Services` there).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges AppServices into Services
  interface Services extends AppServices {}
}

/**
 * Opens the database, applies migrations, loads signing keys and revocations, and starts their
 * background reloads: everything a server needs. `closeServices` stops it all.
 */
export async function openServices(config: Config, logger: Logger, options: OpenServicesOptions = {}): Promise<Services> {
  const intervals: ReloadIntervals = { ...DEFAULT_RELOAD_INTERVALS, ...options.intervals }
  const database = await openDatabase(config, logger)
  const metrics = new Metrics(database.connections)
  const rateLimits = new RateLimits(config, logger, metrics)
  try {
    if (!(await rateLimits.ready())) logger.warn('rate limits: Redis did not answer; counting in this process until it does')
    const applied = await migrateToLatest(database.db)
    if (applied.length) logger.info({ migrations: applied }, 'applied migrations')
    const keys = new KeyStore(database.db, config.keyEncryptionKey)
    await keys.init()
    await warnOfPlainKeys(database.db, config, logger)
    const revocations = new RevocationCache(database.db, config)
    const addresses = new AddressLists(database.db)
    revocations.alsoLoad(() => addresses.load())
    await revocations.reload()
    const audit = new AuditTrail(database.db, logger)
    audit.start()
    const symbolsCache = new SymbolsCache(database.db)
    await symbolsCache.check()
    keys.start(intervals.keys, (err) => logger.warn({ err }, 'signing key reload failed'))
    revocations.start(intervals.revocations, (err) => logger.warn({ err }, 'revocation reload failed'))
    symbolsCache.start(intervals.catalog, (err) => logger.warn({ err }, 'symbol catalog check failed'))
    const proofReplays = config.redisUrl ? new RedisProofReplays(config.redisUrl, logger) : new ProofReplays(database.db)
    proofReplays.start(PROOF_PURGE_INTERVAL_MS, (err) => logger.warn({ err }, 'DPoP proof purge failed'))
    const dpop = new Dpop(proofReplays, config)
    const verifier = new TokenVerifier(keys, config, revocations, undefined, dpop)
    const sessionWrites = new SessionWrites(database.db, {
      maxConcurrentBatches: sessionWriteBatches(database.kind, config.dbPoolSize),
      sessionMaxAge: config.sessionMaxAge,
    })
    const db = database.db
    const events = new EventHub({ read: (key, after, limit) => readEvents(db, key, after, limit), lastSequences: (keys) => lastSequences(db, keys) }, logger, {
      pollMs: intervals.eventPoll,
      maxStreamsPerClient: config.maxStreamsPerClient,
    })
    events.start()
    metrics.watchEventStreams(() => events.size)
    // Names this process in its NOTIFYs, so it skips its own: its passes wake its streams directly.
    const instance = randomUUID().slice(0, 8)
    const eventNotifications = config.databaseUrl
      ? listenForNotifications(
          config.databaseUrl,
          EVENTS_CHANNEL,
          {
            notification: (payload) => {
              const { instance: from, keys } = decodeNotification(payload)
              if (from !== instance) events.wake(keys)
            },
            listening: () => events.wakeAll(),
          },
          logger,
        )
      : undefined
    const webhooks = new WebhookDispatcher(db, logger, {
      allowHttp: config.webhookAllowHttp,
      allowPrivate: config.webhookAllowPrivate,
      encryptionKey: config.keyEncryptionKey,
      retentionDays: config.eventRetentionDays,
      pollMs: intervals.eventPoll,
      ...options.webhooks,
    })
    // Whatever wakes this process's streams (a pass, a transfer, another process's NOTIFY) wakes
    // the webhook dispatcher too: it looks at the table soon, and never holds the waker up.
    const wakeStreams = events.wake.bind(events)
    events.wake = (keys) => {
      wakeStreams(keys)
      webhooks.eventsCommitted()
    }
    const eventRetention = new EventRetention(db, config.eventRetentionDays)
    eventRetention.start(intervals.eventPurge, (err) => logger.warn({ err }, 'event purge failed'))
    const matching = new Matching(database.db, {
      // Half the pool, so reads and other writes always find a connection; the embedded database
      // is one connection, used without transactions (one process: it is the only matcher).
      maxConcurrentPasses: database.kind === 'pglite' ? 1 : Math.max(1, Math.floor(config.dbPoolSize / 2)),
      transactions: database.kind === 'postgres',
      maxOpenOrdersPerSymbol: config.maxOpenOrdersPerSymbol,
      // The embedded database runs each statement on the event loop's thread: smaller steps keep
      // each under the 50 ms bound (docs/matching.md, "Bounded steps").
      ...(database.kind === 'pglite' ? { fillsPerStep: 10, ordersPerStep: 25 } : {}),
      events: { committed: (keys) => events.wake(keys), ...(eventNotifications ? { notify: { instance } } : {}) },
      marketTimeZone: config.marketTimezone,
    })
    await matching.warm()
    webhooks.start()
    matching.startExpiry(intervals.gtdExpiry, (err) => logger.warn({ err }, 'gtd expiry sweep failed'))
    const marketDay = new MarketDay(db, config.marketTimezone)
    marketDay.start((err) => logger.warn({ err }, 'reference price roll failed'))
    const cancelDeadlines = new CancelDeadlines(db, matching, logger)
    cancelDeadlines.start(intervals.cancelDeadlines, (err) => logger.warn({ err }, 'cancel-after sweep failed'))
    return {
      config,
      database,
      db: database.db,
      keys,
      revocations,
      verifier,
      dpop,
      proofReplays,
      logger,
      rateLimits,
      metrics,
      symbolsCache,
      sessionWrites,
      matching,
      orderLists: new ReadCoalescer(),
      events,
      eventNotifications,
      eventRetention,
      marketDay,
      audit,
      addresses,
      webhooks,
      cancelDeadlines,
      intervals,
    }
  } catch (error) {
    await rateLimits.close()
    await database.close()
    throw error
  }
}

/** Prints a value KEY_ENCRYPTION_KEY accepts: 32 random bytes in base64url. */
export const MAKE_KEY_COMMAND = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`

/** Private signing keys stored unencrypted are said at every start, with what to do about it. */
async function warnOfPlainKeys(db: Db, config: Config, logger: Logger): Promise<void> {
  if (!config.keyEncryptionKey) {
    // The message stays as it was (alerts match it); the field gives the one command that makes a key.
    logger.warn(
      { make_key: MAKE_KEY_COMMAND },
      'KEY_ENCRYPTION_KEY is not set: private signing keys are stored unencrypted in the database (see docs/operations.md)',
    )
    return
  }
  const plain = await countPlainKeys(db)
  if (plain > 0) logger.warn({ keys: plain }, 'some private signing keys are stored unencrypted: run `keys encrypt` to encrypt them')
}

export async function closeServices(services: Services): Promise<void> {
  services.events.close()
  services.marketDay.stop()
  await services.audit.close()
  await services.webhooks.close()
  await Promise.all([
    services.keys.stop(),
    services.revocations.stop(),
    services.proofReplays.stop(),
    services.symbolsCache.stop(),
    services.eventRetention.stop(),
    services.cancelDeadlines.stop(),
    services.matching.stopExpiry(),
    services.eventNotifications?.close(),
  ])
  await services.database.close()
  await services.rateLimits.close()
}
