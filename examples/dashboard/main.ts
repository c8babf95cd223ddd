import { readFileSync } from 'node:fs'

import { runDashboardExample } from './dashboard.ts'

// `npm run example:dashboard`: against `npm start` on this machine by default.
const file = process.env.CREDENTIALS ?? '.data/demo-client.json'
const credentials = JSON.parse(readFileSync(file, 'utf8')) as { client_id: string; client_secret: string; base_url?: string }
const baseUrl = process.env.EXCHANGE_URL ?? credentials.base_url ?? 'http://localhost:4000'

try {
  await runDashboardExample({ baseUrl, credentials: { client_id: credentials.client_id, client_secret: credentials.client_secret } })
} catch (error) {
  console.error(`dashboard example failed against ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
