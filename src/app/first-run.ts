import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import type { Services } from '../core/context.ts'
import { countClients } from '../modules/auth/clients/clients.repository.ts'
import { createClient } from '../modules/auth/clients/clients.ts'
import { fundDemoTenant } from '../modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../modules/exchange/symbols/seed.ts'

export const DEMO_CLIENT_FILE = 'demo-client.json'

/** The dashboard example's trusted documents, as graphql-codegen writes them (examples/dashboard). */
export const DEMO_PERSISTED_DOCUMENTS = 'examples/dashboard/generated/persisted-documents.json'

/**
 * The environment `npm start` runs with: on the embedded demo database (no `DATABASE_URL`, not
 * `NODE_ENV=production`), `GRAPHQL_PERSISTED_DOCUMENTS` defaults to the dashboard example's
 * manifest when the checkout has it, so `npm run example:dashboard` works after a plain
 * `npm start` (docs/api.md, "Trusted documents"). A value set, even empty, is left as it is.
 */
export function demoEnvironment(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const embedded = !env.DATABASE_URL && env.NODE_ENV !== 'production'
  if (!embedded || env.GRAPHQL_PERSISTED_DOCUMENTS !== undefined || !existsSync(DEMO_PERSISTED_DOCUMENTS)) return env
  return { ...env, GRAPHQL_PERSISTED_DOCUMENTS: DEMO_PERSISTED_DOCUMENTS }
}

/**
 * On an embedded database with no clients yet: seed the demo market, create a demo client (its tenant
 * funded in every demo currency, docs/accounts.md) whose
 * credentials go to DATA_DIR/demo-client.json (0600). The log names the file, never the secret.
 */
export async function prepareFirstRun(services: Services): Promise<string | undefined> {
  const { database, config, logger } = services
  if (database.kind !== 'pglite' || (await countClients(database.db)) > 0) return undefined
  logger.info('first run: seeding the demo market and creating a demo client')
  await seedDemoMarket(database.db)
  const client = await createClient(database.db, { name: 'Demo Bank' })
  await fundDemoTenant(database.db, client.tenant_id)
  const file = path.resolve(config.dataDir, DEMO_CLIENT_FILE)
  writeFileSync(file, `${JSON.stringify({ ...client, base_url: config.publicBaseUrl }, null, 2)}\n`, { mode: 0o600 })
  logger.info({ file }, 'first run: seeded demo market and created and funded a demo client; its credentials are in the file')
  return file
}
