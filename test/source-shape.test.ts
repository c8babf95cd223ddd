import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { ROOT } from './helpers/process.ts'

// The shape docs/matching.md promises, checked against the tree: pure file reads.

const MAX_LINES = 400

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : []
  })
}

const matchingDoc = readFileSync(path.join(ROOT, 'docs/matching.md'), 'utf8')

describe("the source's shape", () => {
  it(`keeps every source file at most ${MAX_LINES} lines`, () => {
    const long = sourceFiles(path.join(ROOT, 'src'))
      .map((file) => ({ file: path.relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })

  it("gives an order's way in at most 12 steps, one existing file a step (the HTTP edge aside)", () => {
    const section = matchingDoc.slice(matchingDoc.indexOf("## An order's way"), matchingDoc.indexOf('\n## ', matchingDoc.indexOf("## An order's way") + 1))
    const steps = section
      .split(/\n(?=\d+\. )/)
      .filter((item) => /^\d+\. /.test(item))
      .map((item) => item.split('\n\n')[0]!)
    const files = steps.map((step) => [...step.matchAll(/`([a-z0-9/.-]+\.ts)`/g)].map((m) => m[1]!).filter((file) => !file.startsWith('src/http/')))
    expect(files.filter((named) => named.length !== 1)).toEqual([])
    expect(steps.length).toBeGreaterThan(0)
    expect(steps.length).toBeLessThanOrEqual(12)
    for (const [file] of files) expect(statSync(path.join(ROOT, 'src/modules/exchange', file!)).isFile()).toBe(true)
  })

  it('lists the exchange folders in the order dependency-cruiser enforces', () => {
    const config = readFileSync(path.join(ROOT, '.dependency-cruiser.cjs'), 'utf8')
    const list = /const EXCHANGE = \[([^\]]*)\]/.exec(config)?.[1] ?? ''
    const EXCHANGE = [...list.matchAll(/'([a-z-]+)'/g)].map((m) => m[1])
    expect(EXCHANGE.length).toBeGreaterThan(0)
    const sentence = matchingDoc.slice(matchingDoc.indexOf('are ordered, lowest first:'), matchingDoc.indexOf('A folder imports only'))
    expect([...sentence.matchAll(/`([a-z-]+)`/g)].map((m) => m[1])).toEqual(EXCHANGE)
  })
})
