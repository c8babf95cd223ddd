import { afterEach, describe, expect, it, vi } from 'vitest'

import type { Db } from '../../../db/database.ts'
import { RevocationCache } from './revocations.ts'

const principal = (exp: number) => ({ sessionId: 's1', clientId: 'c1', exp })

describe('RevocationCache.watch: the one watch of a credential held past its first use', () => {
  afterEach(() => {
    vi.useRealTimers()
  })
  const cache = () => new RevocationCache({} as Db, { accessTokenTtl: 600, clockSkew: 30 })

  it('ends once at the token expiry', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const ends: string[] = []
    const revocations = cache()
    revocations.watch(principal(1_000 + 5), (why) => ends.push(why))
    vi.advanceTimersByTime(4_999)
    expect(ends).toEqual([])
    vi.advanceTimersByTime(1)
    revocations.revokeSession('s1')
    expect(ends).toEqual(['expired'])
  })

  it('ends once when the session is revoked or the client deactivated, and not for others', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const ends: string[] = []
    const revocations = cache()
    revocations.watch(principal(2_000), (why) => ends.push(`a:${why}`))
    revocations.watch({ ...principal(2_000), sessionId: 's2', clientId: 'c2' }, (why) => ends.push(`b:${why}`))
    revocations.revokeSession('other')
    expect(ends).toEqual([])
    revocations.markClientInactive('c1')
    revocations.revokeSession('s1')
    vi.advanceTimersByTime(2_000_000)
    expect(ends).toEqual(['a:revoked', 'b:expired'])
  })

  it('says nothing once stopped', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const ends: string[] = []
    const revocations = cache()
    const stop = revocations.watch(principal(1_001), (why) => ends.push(why))
    stop()
    revocations.revokeSession('s1')
    vi.advanceTimersByTime(10_000)
    expect(ends).toEqual([])
  })
})
