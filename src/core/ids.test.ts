import { describe, expect, it } from 'vitest'

import { uuidv7 } from './ids.ts'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('uuidv7', () => {
  it('makes version-7, RFC 9562 variant ids that sort in the order they were made, across pool refills', () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7())
    for (const id of ids) expect(id).toMatch(UUID_V7)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('never gives two ids the same random part (each takes its own bytes of the pool)', () => {
    const tails = Array.from({ length: 1000 }, () => uuidv7().slice(19))
    expect(new Set(tails).size).toBe(tails.length)
  })
})
