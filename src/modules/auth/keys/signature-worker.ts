import { type KeyObject, sign } from 'node:crypto'
import { Worker } from 'node:worker_threads'

/**
 * What the worker runs: CommonJS evaluated from this string, so it needs no TypeScript loader.
 * A message is one batch: `{ id, keyId, key?, inputs }` → `{ id, signatures }` or `{ id, error }`.
 */
export const SIGNATURE_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { sign } = require('node:crypto')
const keys = new Map()
parentPort.on('message', ({ id, keyId, key, inputs }) => {
  try {
    if (key) keys.set(keyId, key)
    const privateKey = keys.get(keyId)
    const signatures = inputs.map((input) => sign(null, Buffer.from(input), privateKey).toString('base64url'))
    parentPort.postMessage({ id, signatures })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})`

interface Job {
  input: string
  resolve: (signature: string) => void
  reject: (error: unknown) => void
}

interface Batch {
  key: KeyObject
  jobs: Job[]
}

type Reply = { id: number; signatures: string[] } | { id: number; error: string }

const signNow = (key: KeyObject, input: string) => sign(null, Buffer.from(input), key).toString('base64url')

/**
 * Ed25519 signatures (base64url) made on one worker thread, so the two signatures of every login
 * and refresh leave the event loop that serves requests. Signing requests made in the same turn
 * of the event loop travel as one message each way, so the hand-off costs far less than the
 * signatures it moves. If the worker cannot start or dies, the batches it held are signed here
 * instead, and the next batch starts a new worker: a token is never lost to the thread.
 */
export class SignatureWorker {
  #worker: Worker | undefined
  /** The keys this worker already holds, by the number messages name them with. */
  #sentKeys = new Map<KeyObject, number>()
  #nextKeyId = 0
  #queue = new Map<KeyObject, Job[]>()
  #scheduled = false
  #inFlight = new Map<number, Batch>()
  #nextBatchId = 0
  #closed = false

  constructor(private readonly source: string = SIGNATURE_WORKER_SOURCE) {}

  /** The base64url Ed25519 signature of `input` under `key`. */
  sign(key: KeyObject, input: string): Promise<string> {
    if (this.#closed) return Promise.resolve(signNow(key, input))
    return new Promise((resolve, reject) => {
      const jobs = this.#queue.get(key)
      if (jobs) jobs.push({ input, resolve, reject })
      else this.#queue.set(key, [{ input, resolve, reject }])
      if (!this.#scheduled) {
        this.#scheduled = true
        setImmediate(() => this.#flush())
      }
    })
  }

  /** Ends the thread; batches it still held are signed here, and so is anything asked later. */
  async close(): Promise<void> {
    this.#closed = true
    const worker = this.#worker
    if (worker) await worker.terminate()
    this.#flush()
  }

  #flush(): void {
    this.#scheduled = false
    const queued = this.#queue
    this.#queue = new Map()
    const worker = this.#closed ? undefined : this.#ensureWorker()
    for (const [key, jobs] of queued) {
      if (!worker) {
        signHere({ key, jobs })
        continue
      }
      const id = this.#nextBatchId++
      this.#inFlight.set(id, { key, jobs })
      let keyId = this.#sentKeys.get(key)
      const sendKey = keyId === undefined
      if (keyId === undefined) this.#sentKeys.set(key, (keyId = this.#nextKeyId++))
      worker.postMessage({ id, keyId, key: sendKey ? key : undefined, inputs: jobs.map((job) => job.input) })
    }
  }

  #ensureWorker(): Worker | undefined {
    if (this.#worker) return this.#worker
    let worker: Worker
    try {
      worker = new Worker(this.source, { eval: true })
    } catch {
      return undefined
    }
    // Never what keeps a process (or a test run) alive.
    worker.unref()
    worker.on('message', (reply: Reply) => this.#settle(reply))
    // An uncaught error ends the worker; 'exit' follows and signs what it held here.
    worker.on('error', () => {})
    worker.on('exit', () => this.#lost(worker))
    this.#worker = worker
    this.#sentKeys = new Map()
    return worker
  }

  #settle(reply: Reply): void {
    const batch = this.#inFlight.get(reply.id)
    if (!batch) return
    this.#inFlight.delete(reply.id)
    if ('error' in reply) {
      const error = new Error(`signing failed: ${reply.error}`)
      for (const job of batch.jobs) job.reject(error)
    } else {
      batch.jobs.forEach((job, i) => job.resolve(reply.signatures[i]!))
    }
  }

  /** The worker ended (closed or crashed): what it held is signed here. */
  #lost(worker: Worker): void {
    if (this.#worker !== worker) return
    this.#worker = undefined
    const batches = [...this.#inFlight.values()]
    this.#inFlight.clear()
    for (const batch of batches) signHere(batch)
  }
}

function signHere({ key, jobs }: Batch): void {
  for (const job of jobs) {
    try {
      job.resolve(signNow(key, job.input))
    } catch (error) {
      job.reject(error)
    }
  }
}
