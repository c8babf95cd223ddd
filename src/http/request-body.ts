import type { IncomingMessage } from 'node:http'

import { AppError } from '../core/errors.ts'

/** The largest request body read, on either face; past it the answer is 413. */
export const MAX_BODY_BYTES = 1024 * 1024

const incomplete = (cause: unknown) =>
  // The caller went away mid-body: their fault, not the service's (no 5xx, no outage alarm).
  new AppError('bad_request', 'The request body was not received completely', { cause })

/**
 * A Node request's body, up to MAX_BODY_BYTES. Past the limit it stops collecting but keeps the
 * stream flowing (the rest is discarded), so the 413 answer still reaches the caller.
 */
export function readNodeBody(request: IncomingMessage): Promise<Uint8Array> {
  if (request.readableEnded) return Promise.resolve(new Uint8Array())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = () => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
      request.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        settle()
        request.on('error', () => {})
        request.resume()
        reject(new AppError('payload_too_large'))
      } else chunks.push(chunk)
    }
    const onEnd = () => {
      settle()
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
    const onError = (error: unknown) => {
      settle()
      reject(incomplete(error))
    }
    const onClose = () => {
      if (request.complete) return
      settle()
      reject(incomplete(new Error('connection closed before the body ended')))
    }
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
    request.on('close', onClose)
  })
}

/** A Fetch request's body, up to MAX_BODY_BYTES (the GraphQL face). */
export async function readLimited(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch (error) {
      throw incomplete(error)
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {})
      throw new AppError('payload_too_large')
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}
