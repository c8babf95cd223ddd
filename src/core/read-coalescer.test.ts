import { describe, expect, it } from 'vitest'

import { ReadCoalescer } from './read-coalescer.ts'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const turn = () => new Promise((r) => setImmediate(r))

describe('ReadCoalescer', () => {
  it('answers identical reads asked together from one run, with the same value', async () => {
    const reads = new ReadCoalescer<{ n: number }>()
    let runs = 0
    const run = async () => ({ n: ++runs })
    const results = await Promise.all([1, 2, 3, 4].map(() => reads.read('k', run)))
    expect(runs).toBe(1)
    expect(new Set(results).size).toBe(1)
    expect(results[0]).toEqual({ n: 1 })
  })

  it('never answers a read from a run that started before it arrived', async () => {
    const reads = new ReadCoalescer<string>()
    const gates = [deferred<string>(), deferred<string>()]
    let started = 0
    const run = () => gates[started++]!.promise
    const early = reads.read('k', run)
    await turn()
    expect(started).toBe(1)
    // The first run is in flight (its snapshot may predate a write acknowledged since): these wait.
    const late = [reads.read('k', run), reads.read('k', run)]
    await turn()
    expect(started).toBe(1)
    gates[0]!.resolve('before')
    expect(await early).toBe('before')
    for (let i = 0; i < 10 && started < 2; i++) await turn()
    expect(started).toBe(2)
    gates[1]!.resolve('after')
    expect(await Promise.all(late)).toEqual(['after', 'after'])
  })

  it('runs different keys separately and at once', async () => {
    const reads = new ReadCoalescer<string>()
    const seen: string[] = []
    const results = await Promise.all(['a', 'b', 'a'].map((key) => reads.read(key, async () => (seen.push(key), key.toUpperCase()))))
    expect(results).toEqual(['A', 'B', 'A'])
    expect(seen.sort()).toEqual(['a', 'b'])
  })

  it('fails only the reads that shared a failed run; the next read runs afresh', async () => {
    const reads = new ReadCoalescer<number>()
    let runs = 0
    const failing = Promise.allSettled(
      [1, 2].map(() =>
        reads.read('k', async () => {
          runs++
          throw new Error('database went away')
        }),
      ),
    )
    expect((await failing).map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(await reads.read('k', async () => ++runs)).toBe(2)
    const thrown = reads.read('k', () => {
      throw new Error('synchronous')
    })
    await expect(thrown).rejects.toThrow('synchronous')
  })
})
