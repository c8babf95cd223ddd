import type { Logger } from 'pino'
import { TokenVerifier } from './auth-context.ts'
import type { Config } from './config.ts'
import type { Services } from './context.ts'
import { openDatabase } from './db.ts'
import { migrateToLatest } from './migrate.ts'
import { KeyStore } from './modules/auth/signing-keys.ts'

/** Opens the database, applies migrations and loads signing keys: everything a server needs. */
export async function openServices(config: Config, logger: Logger): Promise<Services> {
  const database = await openDatabase(config)
  try {
    const applied = await migrateToLatest(database.db)
    if (applied.length) logger.info({ migrations: applied }, 'applied migrations')
    const keys = new KeyStore(database.db, config.keyEncryptionKey)
    await keys.init()
    const verifier = new TokenVerifier(keys, config)
    return { config, database, db: database.db, keys, verifier, logger }
  } catch (error) {
    await database.close()
    throw error
  }
}

export async function closeServices(services: Services): Promise<void> {
  await services.database.close()
}
