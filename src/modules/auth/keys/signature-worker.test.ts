import { generateKeyPairSync, sign, verify } from 'node:crypto'

import { describe, expect, it } from 'vitest'

import { SIGNATURE_WORKER_SOURCE, SignatureWorker } from './signature-worker.ts'

const keyA = generateKeyPairSync('ed25519')
const keyB = generateKeyPairSync('ed25519')
const expected = (key: typeof keyA, input: string) => sign(null, Buffer.from(input), key.privateKey).toString('base64url')
const inputs = Array.from({ length: 60 }, (_, i) => `header.payload-${i}`)

/** The real worker, except each signature comes back tagged with the size of the batch it travelled in. */
const TAGGING_SOURCE = SIGNATURE_WORKER_SOURCE.replace(
  'parentPort.postMessage({ id, signatures })',
  'parentPort.postMessage({ id, signatures: signatures.map((s) => inputs.length + ":" + s) })',
)

/** Runs `use` with a worker on `source`, closed afterwards whatever happens. */
async function withWorker(source: string | undefined, use: (worker: SignatureWorker) => Promise<void>) {
  const worker = new SignatureWorker(source)
  try {
    await use(worker)
  } finally {
    await worker.close()
  }
}

describe('SignatureWorker', () => {
  it('signs on the worker thread: byte for byte what node:crypto signs here, one message per key for a turn of the event loop', async () => {
    await withWorker(TAGGING_SOURCE, async (worker) => {
      const signed = await Promise.all(inputs.map((input, i) => worker.sign((i % 2 ? keyB : keyA).privateKey, input)))
      signed.forEach((tagged, i) => expect(tagged).toBe(`30:${expected(i % 2 ? keyB : keyA, inputs[i]!)}`))
      // A later turn is a batch of its own, and the worker still holds both keys.
      expect(await worker.sign(keyB.privateKey, 'later')).toBe(`1:${expected(keyB, 'later')}`)
    })
  })

  it('signatures from the default worker verify under the public key', async () => {
    await withWorker(undefined, async (worker) => {
      const signatures = await Promise.all(inputs.map((input) => worker.sign(keyA.privateKey, input)))
      signatures.forEach((signature, i) => {
        expect(verify(null, Buffer.from(inputs[i]!), keyA.publicKey, Buffer.from(signature, 'base64url'))).toBe(true)
      })
    })
  })

  it('a worker that dies with batches in hand: they are signed on this thread, and the next batch gets a new worker', async () => {
    const crashing = TAGGING_SOURCE.replace('try {', "if (inputs.includes('crash')) process.exit(1)\n  try {")
    await withWorker(crashing, async (worker) => {
      const held = [...inputs, 'crash']
      const first = await Promise.all(held.map((input) => worker.sign(keyA.privateKey, input)))
      first.forEach((signature, i) => expect(signature).toBe(expected(keyA, held[i]!)))
      const second = await Promise.all(inputs.slice(0, 5).map((input) => worker.sign(keyA.privateKey, input)))
      second.forEach((signature, i) => expect(signature).toBe(`5:${expected(keyA, inputs[i]!)}`))
    })
  })

  it('a signature the worker could not make is an error for its callers only', async () => {
    const failing = SIGNATURE_WORKER_SOURCE.replace('if (key)', "if (inputs.includes('bad')) throw new Error('no such key')\n    if (key)")
    await withWorker(failing, async (worker) => {
      const bad = worker.sign(keyA.privateKey, 'bad')
      const good = worker.sign(keyB.privateKey, 'good')
      await expect(bad).rejects.toThrow('signing failed: no such key')
      expect(await good).toBe(expected(keyB, 'good'))
    })
  })

  it('close: what the worker held and anything asked later is signed on this thread', async () => {
    const worker = new SignatureWorker(TAGGING_SOURCE)
    const pending = Promise.all(inputs.map((input) => worker.sign(keyA.privateKey, input)))
    await new Promise((r) => setImmediate(r))
    await worker.close()
    const signed = await pending
    signed.forEach((signature, i) => expect(signature.replace(/^\d+:/, '')).toBe(expected(keyA, inputs[i]!)))
    expect(await worker.sign(keyB.privateKey, 'after close')).toBe(expected(keyB, 'after close'))
  })
})
