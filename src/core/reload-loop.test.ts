import { describe, expect, it } from 'vitest'

import { ReloadLoop } from './reload-loop.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('ReloadLoop', () => {
  it('runs one load at a time: callers during a load share it, a later call loads again', async () => {
    let loads = 0
    let release!: () => void
    const loop = new ReloadLoop(() => {
      loads++
      return new Promise<void>((r) => (release = r))
    })
    const a = loop.run()
    const b = loop.run()
    expect(loads).toBe(1)
    expect(loop.inFlight).toBe(a)
    release()
    await Promise.all([a, b])
    expect(loop.inFlight).toBeUndefined()
    const c = loop.run()
    expect(loads).toBe(2)
    release()
    await c
  })

  it('loads on every tick, reports failures and tries again; stop ends the ticks and waits for a load in flight', async () => {
    const errors: unknown[] = []
    let loads = 0
    let finished = 0
    const loop = new ReloadLoop(async () => {
      loads++
      if (loads === 2) throw new Error('database went away')
      await sleep(30)
      finished++
    })
    loop.start(10, (error) => errors.push(error))
    for (let i = 0; i < 100 && loads < 3; i++) await sleep(10)
    expect(loads).toBeGreaterThanOrEqual(3)
    expect(errors).toHaveLength(1)
    await loop.stop()
    // Nothing was left running, and nothing runs after stop.
    expect(loop.inFlight).toBeUndefined()
    expect(finished).toBe(loads - 1)
    const stoppedAt = loads
    await sleep(50)
    expect(loads).toBe(stoppedAt)
  })
})
