import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { locateJsonError } from './json-error-location.ts'

// Positions and messages as Python's json module reports them (FastAPI's json_invalid).
const cases: [string, string, number][] = [
  ['{"a":}', 'Expecting value', 5],
  ['{a:1}', 'Expecting property name enclosed in double quotes', 1],
  ['{"a":1,}', 'Expecting property name enclosed in double quotes', 7],
  ['[1,2', "Expecting ',' delimiter", 4],
  ['{"a":1} x', 'Extra data', 8],
  ['"abc', 'Unterminated string starting at', 0],
  ['{"a" 1}', "Expecting ':' delimiter", 5],
  ['[1,]', 'Expecting value', 3],
  ['nul', 'Expecting value', 0],
  ['{"a":"\\x"}', 'Invalid \\escape', 6],
  ['\t\n  ', 'Expecting value', 4],
  ['{"a":"b\nc"}', 'Invalid control character at', 7],
]

describe('locateJsonError', () => {
  it.each(cases)('%j → %s at %i', (text, message, position) => {
    expect(locateJsonError(text)).toEqual({ message, position })
  })

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        // The scanner only ever runs on invalid input; on valid input it must find nothing wrong.
        if (valid) expect(locateJsonError(text).position).toBe(text.length)
        else expect(locateJsonError(text).position).toBeLessThanOrEqual(text.length)
      }),
      { numRuns: 2000 },
    )
  })

  it('survives very deep nesting', () => {
    const deep = '['.repeat(100_000)
    expect(locateJsonError(deep).message).toMatch(/Expecting value|Maximum nesting depth/)
  })
})
