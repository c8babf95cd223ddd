import type { Services } from '../../src/context.ts'
import { REVOCATION_REFRESH_INTERVAL_MS } from '../../src/modules/auth/revocations.ts'
import { KEY_RELOAD_INTERVAL_MS } from '../../src/modules/auth/signing-keys.ts'
import { CATALOG_POLL_INTERVAL_MS } from '../../src/modules/exchange/symbols-cache.ts'

/** Runs `fn` with the periodic reloads stopped, so statement counts see only the requests' own. */
export async function withoutBackgroundPolls(services: Services, fn: () => Promise<void>): Promise<void> {
  const { keys, revocations, symbolsCache, logger } = services
  await Promise.all([keys.stop(), revocations.stop(), symbolsCache.stop()])
  try {
    await fn()
  } finally {
    keys.startPeriodicReload(KEY_RELOAD_INTERVAL_MS, (err) => logger.warn({ err }))
    revocations.start(REVOCATION_REFRESH_INTERVAL_MS, (err) => logger.warn({ err }))
    symbolsCache.start(CATALOG_POLL_INTERVAL_MS, (err) => logger.warn({ err }))
  }
}
