import { readFileSync, writeFileSync } from 'node:fs'

import openapiTS, { astToString } from 'openapi-typescript'

import { openApiText } from '../src/app/openapi.ts'
import { routes } from '../src/app/routes.ts'

/**
 * Writes `openapi.json` from the route table, and the bank example's types from it
 * (openapi-typescript); `--check` fails when either is stale (docs/contracts.md).
 */
const documentFile = new URL('../openapi.json', import.meta.url)
const typesFile = new URL('../examples/bank/generated/openapi.d.ts', import.meta.url)

const document = openApiText(routes)
const types = `// Generated from openapi.json by \`npm run openapi\` (openapi-typescript). Do not edit.\n${astToString(await openapiTS(JSON.parse(document) as never, { alphabetize: false }))}`

const outputs: [URL, string, string][] = [
  [documentFile, document, 'openapi.json'],
  [typesFile, types, 'examples/bank/generated/openapi.d.ts'],
]

if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text
    } catch {
      return true
    }
  })
  for (const [, , name] of stale) process.stderr.write(`${name} is stale: run \`npm run openapi\`\n`)
  if (stale.length) process.exit(1)
  process.stdout.write('openapi.json and the bank example types are up to date\n')
} else {
  for (const [file, text, name] of outputs) {
    writeFileSync(file, text)
    process.stdout.write(`wrote ${name}\n`)
  }
}
