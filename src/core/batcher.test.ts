import { describe, expect, it } from 'vitest'

import { Batcher } from './batcher.ts'

function deferred() {
  let release!: () => void
  const done = new Promise<void>((r) => (release = r))
  return { done, release }
}

describe('Batcher', () => {
  it('sends items submitted together as one batch and answers each caller with its own outcome', async () => {
    const calls: number[][] = []
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls.push([...items])
        return items.map((n) => n * 10)
      },
      { maxBatchSize: 100, maxConcurrentBatches: 2 },
    )
    const results = await Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)))
    expect(results).toEqual([10, 20, 30, 40])
    expect(calls).toEqual([[1, 2, 3, 4]])
  })

  it('caps the batch size and the batches in flight; what waits goes out together', async () => {
    const calls: number[][] = []
    const gate = deferred()
    let inFlight = 0
    let maxInFlight = 0
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls.push([...items])
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        await gate.done
        inFlight--
        return items
      },
      { maxBatchSize: 3, maxConcurrentBatches: 2 },
    )
    const first = [1, 2, 3, 4, 5, 6, 7].map((n) => batcher.submit(n))
    await new Promise((r) => setImmediate(r))
    const later = [8, 9].map((n) => batcher.submit(n))
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ])
    gate.release()
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(calls.slice(2).flat().sort()).toEqual([7, 8, 9])
    expect(maxInFlight).toBe(2)
  })

  it('fails every item of a failed batch with its error', async () => {
    const batcher = new Batcher<number, number>(
      async () => {
        throw new Error('database down')
      },
      { maxBatchSize: 10, maxConcurrentBatches: 1, retryAlone: () => false },
    )
    const outcomes = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)))
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'ok'))).toEqual(['database down', 'database down'])
  })

  it('runs the items of a batch that failed with a retryable error alone, so one bad item fails only itself', async () => {
    const calls: number[][] = []
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls.push([...items])
        if (items.includes(13)) throw new Error('constraint')
        return items
      },
      { maxBatchSize: 10, maxConcurrentBatches: 1, retryAlone: (e) => (e as Error).message === 'constraint' },
    )
    const outcomes = await Promise.allSettled([12, 13, 14].map((n) => batcher.submit(n)))
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual([12, 'failed', 14])
    expect(calls).toEqual([[12, 13, 14], [12], [13], [14]])
  })

  it('rejects a batch whose outcomes do not match its items', async () => {
    const batcher = new Batcher<number, number>(async () => [1], { maxBatchSize: 10, maxConcurrentBatches: 1 })
    const outcomes = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)))
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true)
  })
})
