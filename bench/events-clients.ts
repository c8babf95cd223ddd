/**
 * Creates the events scenario's clients, each with a tenant of its own, and prints their credentials
 * as one JSON array: one process for all of them, where the CLI would spawn one per client.
 * Runs before the service starts: the embedded database admits one process at a time.
 * Run: npx tsx bench/events-clients.ts <count>
 */
import { loadConfig } from '../src/core/config.ts'
import { openDatabase } from '../src/db/database.ts'
import { createClient } from '../src/modules/auth/clients/clients.ts'
import { fundTenant } from './funding.ts'

const count = Number(process.argv[2] ?? 100)
const database = await openDatabase(loadConfig())
try {
  const credentials: { client_id: string; client_secret: string }[] = []
  for (let i = 1; i <= count; i++) {
    const { client_id, client_secret, tenant_id } = await createClient(database.db, { name: `Bench Events Tenant ${i}` })
    await fundTenant(database.db, tenant_id)
    credentials.push({ client_id, client_secret })
  }
  process.stdout.write(`${JSON.stringify(credentials)}\n`)
} finally {
  await database.close()
}
