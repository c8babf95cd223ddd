/**
 * Funds bench tenants in every currency through operators' deposits, so every order the bench
 * places is paid for (docs/accounts.md). Runs before the service starts, like the CLI.
 * Run: npx tsx bench/fund.ts <tenant_id> [<tenant_id> …]
 */
import { loadConfig } from '../src/core/config.ts'
import { openDatabase } from '../src/db/database.ts'
import { fundTenant } from './funding.ts'

const database = await openDatabase(loadConfig())
try {
  for (const tenantId of process.argv.slice(2)) await fundTenant(database.db, tenantId)
} finally {
  await database.close()
}
