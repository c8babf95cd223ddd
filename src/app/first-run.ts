import { writeFileSync } from 'node:fs'
import path from 'node:path'

import type { Services } from '../core/context.ts'
import { countClients } from '../modules/auth/clients/clients.repository.ts'
import { createClient } from '../modules/auth/clients/clients.ts'
import { fundDemoTenant } from '../modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../modules/exchange/symbols/seed.ts'

export const DEMO_CLIENT_FILE = 'demo-client.json'

/**
 * On an embedded database with no clients yet: seed the demo market, create a demo client (its tenant
 * funded in every demo currency, docs/accounts.md) whose
 * credentials go to DATA_DIR/demo-client.json (0600). The log names the file, never the secret.
 */
export async function prepareFirstRun(services: Services): Promise<string | undefined> {
  const { database, config, logger } = services
  if (database.kind !== 'pglite' || (await countClients(database.db)) > 0) return undefined
  await seedDemoMarket(database.db)
  const client = await createClient(database.db, { name: 'Demo Bank' })
  await fundDemoTenant(database.db, client.tenant_id)
  const file = path.resolve(config.dataDir, DEMO_CLIENT_FILE)
  writeFileSync(file, `${JSON.stringify({ ...client, base_url: config.publicBaseUrl }, null, 2)}\n`, { mode: 0o600 })
  logger.info({ file }, 'first run: seeded demo market and created and funded a demo client; its credentials are in the file')
  return file
}
