import { describe, expect, it } from 'vitest'

import { WindowCounters } from './window-counters.ts'

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe('WindowCounters', () => {
  it('counts a key within the window that its first point started', () => {
    const t = clock()
    const counters = new WindowCounters(60_000, t.now)
    expect(counters.add('a', 1)).toEqual({ points: 1, msLeft: 60_000 })
    t.advance(59_999)
    expect(counters.add('a', 2)).toEqual({ points: 3, msLeft: 1 })
    expect(counters.add('b', 1)).toEqual({ points: 1, msLeft: 60_000 })
  })

  it('starts a new window once the old one has ended', () => {
    const t = clock()
    const counters = new WindowCounters(60_000, t.now)
    counters.add('a', 5)
    t.advance(60_000)
    expect(counters.add('a', 1)).toEqual({ points: 1, msLeft: 60_000 })
  })

  it('drops ended windows, so keys seen once do not stay', () => {
    const t = clock()
    const counters = new WindowCounters(1_000, t.now)
    for (let i = 0; i < 500; i++) counters.add(`once-${i}`, 1)
    expect(counters.size).toBe(500)
    t.advance(1_000)
    counters.add('again', 1)
    expect(counters.size).toBe(1)
    // A window still open survives the sweep.
    t.advance(500)
    counters.add('late', 1)
    t.advance(600)
    counters.add('late', 1)
    expect(counters.add('late', 1)).toEqual({ points: 3, msLeft: 400 })
  })
})
