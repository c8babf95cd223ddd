import { readdirSync, readFileSync } from 'node:fs'
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

/**
 * What Node 22 added that Node 20 lacks, as a call would read. (`Set.prototype.union` and
 * `intersection` are left out: kysely's own query builder has methods of those names.)
 */
const NODE_22_ONLY = [
  'Promise.withResolvers(',
  'Object.groupBy(',
  'Map.groupBy(',
  'Array.fromAsync(',
  'Iterator.from(',
  'process.getBuiltinModule(',
  '.symmetricDifference(',
  '.isSubsetOf(',
  '.isSupersetOf(',
  '.isDisjointFrom(',
]

describe('kysely on Node 20 (CONTRIBUTING.md, "Code and dependencies")', () => {
  // Its engines field asks for Node 22 (npm warns, and installs it): what it runs must still be
  // in Node 20. The suite runs it there; this names what a new release would break it with.
  it('calls nothing Node 20 lacks', () => {
    const dist = path.join(ROOT, 'node_modules/kysely/dist')
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'))
    expect(files.length).toBeGreaterThan(100)
    const uses = files.flatMap((file) => {
      const text = readFileSync(path.join(dist, file), 'utf8')
      return NODE_22_ONLY.filter((call) => text.includes(call)).map((call) => `${file}: ${call}`)
    })
    expect(uses).toEqual([])
    // Its one use of a newer name defines it when missing.
    expect(readFileSync(path.join(dist, 'kysely.js'), 'utf8')).toContain("Symbol.asyncDispose ??= Symbol('Symbol.asyncDispose')")
  })
})
