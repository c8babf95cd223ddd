import { readFileSync, writeFileSync } from 'node:fs'

import { printSchema } from 'graphql'

import { schema } from '../src/app/graphql-schema.ts'

const file = new URL('../schema.graphql', import.meta.url)
const printed = `${printSchema(schema)}\n`

if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(file, 'utf8')
  } catch {}
  if (current !== printed) {
    process.stderr.write('schema.graphql is stale: run `npm run schema`\n')
    process.exit(1)
  }
  process.stdout.write('schema.graphql is up to date\n')
} else {
  writeFileSync(file, printed)
  process.stdout.write('wrote schema.graphql\n')
}
