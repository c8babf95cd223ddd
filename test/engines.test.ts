import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { ROOT } from './helpers/process.ts'

// npm's own range parser (every npm install has it), so a range means here what it means to npm.
const semver = createRequire(import.meta.url)('semver') as { satisfies: (version: string, range: string) => boolean }

/** The oldest Node the README names: `npm ci` on it must print no EBADENGINE warning. */
const NODE = '20.19.0'

/**
 * Packages still refusing that Node, each with its reason. kysely: every 0.29.x wants Node 22,
 * and 0.28.x has neither PGliteDialect nor `kysely/migration`, which src/db uses.
 */
const KNOWN: Record<string, string> = { kysely: 'needs Node 22 from 0.29.0 (see the comment above)' }

describe('package-lock.json', () => {
  it(`installs nothing whose engines refuse Node ${NODE}`, () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>
    }
    const refusing = Object.entries(lock.packages).flatMap(([where, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      const name = where.replace(/^.*node_modules\//, '')
      return range && !semver.satisfies(NODE, range) && !(name in KNOWN) ? [`${name}@${entry.version} wants node ${range} (${where})`] : []
    })
    expect(refusing).toEqual([])
  })
})
