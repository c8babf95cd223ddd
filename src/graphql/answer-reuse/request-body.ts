import type { IncomingMessage } from 'node:http'

import { duplicateKeys, firstOutOfBounds } from '../../http/json-body.ts'

// Larger bodies go to Yoga unread: a dashboard's catalog query is a few hundred bytes.
const MAX_BODY_BYTES = 8 * 1024

/** A JSON body's GraphQL parameters, when they are exactly `query` and optionally `operationName` and `variables`. */
export interface Params {
  query: string
  operationName: string | null | undefined
  variables: Record<string, unknown> | null | undefined
}

/** The body length of a request that may be answered before Yoga; `undefined` sends it to Yoga unread. */
export function candidateLength(req: IncomingMessage, url: URL): number | undefined {
  if (req.method !== 'POST' || url.search !== '' || req.headers['transfer-encoding'] !== undefined || req.headers['content-encoding'] !== undefined)
    return undefined
  const length = Number(req.headers['content-length'])
  return Number.isInteger(length) && length > 0 && length <= MAX_BODY_BYTES ? length : undefined
}

/**
 * The GraphQL parameters of a JSON body that holds `query` and optionally `operationName` and
 * `variables`, as Yoga reads them; anything else (other keys, other types, JSON beyond the bounds
 * graphqlLimitsPlugin enforces, a key twice in one object, not JSON) is undefined and left to Yoga.
 */
export function plainParams(body: Buffer): Params | undefined {
  const text = body.toString('utf8')
  if (firstOutOfBounds(text) !== undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  // A key twice in one object: Yoga's pipeline refuses it (graphqlLimitsPlugin).
  if (duplicateKeys(text).length > 0) return undefined
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const { query, operationName, variables, ...rest } = parsed as Record<string, unknown>
  if (Object.keys(rest).length > 0 || typeof query !== 'string') return undefined
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined
  return { query, operationName, variables: variables as Record<string, unknown> | null | undefined }
}

/** `req`'s body: all `length` bytes, or what came before the client went away. */
export function readBody(req: IncomingMessage, length: number): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = () => resolve({ body: Buffer.concat(chunks, size), complete: size === length && req.complete })
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
    })
    // Whichever comes first settles it; `close` follows `end` on every request.
    req.once('end', settle)
    req.once('close', settle)
    req.on('error', settle)
  })
}

/** Yoga reads a body already read from `req.body`, as it does behind body-parsing frameworks. */
export function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  ;(req as IncomingMessage & { body?: Buffer }).body = body
  return req
}
