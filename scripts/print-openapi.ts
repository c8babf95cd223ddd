import { readFileSync, writeFileSync } from 'node:fs'

import { openApiText } from '../src/app/openapi.ts'
import { routes } from '../src/app/routes.ts'

const file = new URL('../openapi.json', import.meta.url)
const printed = openApiText(routes)

if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(file, 'utf8')
  } catch {}
  if (current !== printed) {
    process.stderr.write('openapi.json is stale: run `npm run openapi`\n')
    process.exit(1)
  }
  process.stdout.write('openapi.json is up to date\n')
} else {
  writeFileSync(file, printed)
  process.stdout.write('wrote openapi.json\n')
}
