import { describe, expect, it } from 'vitest'

import { cachedIsoTime } from './logger.ts'

describe('cachedIsoTime', () => {
  it('are ISO 8601 with milliseconds, the current time', () => {
    const time = cachedIsoTime()
    const before = Date.now()
    const text = time()
    const after = Date.now()
    const stamp = Date.parse(JSON.parse(`{${text.slice(1)}}`).time)
    expect(text).toMatch(/^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/)
    expect(stamp).toBeGreaterThanOrEqual(before)
    expect(stamp).toBeLessThanOrEqual(after)
  })
})
