import { sql } from 'kysely'

import type { Services } from '../../src/core/context.ts'
import { eventually } from './eventually.ts'

/**
 * Runs `fn` with the periodic reloads stopped, so statement counts see only the requests' own;
 * restarts them at the server's intervals. Audit records an earlier answer left behind it (a
 * login's, gathered for up to 10 ms) are written first, so they are not counted as `fn`'s.
 */
export async function withoutBackgroundPolls(services: Services, fn: () => Promise<void>): Promise<void> {
  const { keys, revocations, symbolsCache, cancelDeadlines, matching, webhooks, audit, logger, intervals } = services
  webhooks.stop()
  await Promise.all([keys.stop(), revocations.stop(), symbolsCache.stop(), cancelDeadlines.stop(), matching.stopExpiry(), audit.written()])
  try {
    await noStatementRunning(services)
    await fn()
  } finally {
    keys.start(intervals.keys, (err) => logger.warn({ err }))
    revocations.start(intervals.revocations, (err) => logger.warn({ err }))
    symbolsCache.start(intervals.catalog, (err) => logger.warn({ err }))
    cancelDeadlines.start(intervals.cancelDeadlines, (err) => logger.warn({ err }))
    matching.startExpiry(intervals.gtdExpiry, (err) => logger.warn({ err }))
    webhooks.start()
  }
}

/**
 * A statement of an earlier request can still be running after its response was sent (a GraphQL
 * field whose sibling's error already ended the response): it must not be counted as the next one's.
 */
async function noStatementRunning(services: Services): Promise<void> {
  // The embedded database has one connection: a statement sent now runs after any still running.
  if (services.database.kind === 'pglite') {
    // On the handle's own Kysely: a test may have swapped `services.db` for one that records statements.
    await sql`select 1`.execute(services.database.db)
    return
  }
  await eventually(
    async () => {
      const { total, idle, waiting } = services.database.connections()
      return total === idle && waiting === 0 ? true : undefined
    },
    5000,
    10,
  )
}
