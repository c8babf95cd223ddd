import { isUtf8 } from 'node:buffer'
import type { IncomingMessage } from 'node:http'

import { AppError, validationError } from '../core/errors.ts'

export const MAX_BODY_BYTES = 1024 * 1024
/**
 * Arrays and objects nested deeper than this are refused before parsing: every consumer of a
 * parsed body (zod, error rendering, JSON.stringify) recurses, and 100,000 levels of `[` fit in
 * 1 MiB. The API's bodies are a few levels deep.
 */
export const MAX_JSON_DEPTH = 64
/**
 * Keys one object, and the whole body, may carry; more are refused before parsing: JSON.parse
 * spends ~1 µs on each distinct key (100,000 fit in 1 MiB), and everything after it (zod, `detail`)
 * walks them again. The API's bodies have a handful (docs/operations.md, "Abuse limits").
 */
export const MAX_JSON_KEYS_PER_OBJECT = 1000
export const MAX_JSON_KEYS = 10_000

/** Which bound a body breaks, and its wording in a REST `json_invalid` item's `ctx.error`. */
export const JSON_BOUND_ERRORS = {
  depth: 'Maximum nesting depth exceeded',
  keysPerObject: `Maximum of ${MAX_JSON_KEYS_PER_OBJECT} keys per object exceeded`,
  keys: `Maximum of ${MAX_JSON_KEYS} keys per body exceeded`,
} as const

export interface JsonBoundBreach {
  /** Where the bracket or key over the bound starts. */
  position: number
  bound: keyof typeof JSON_BOUND_ERRORS
}

/**
 * Parses a JSON request body. Malformed JSON is answered as the reference's 422 `json_invalid`
 * (`loc: ["body", <position>]`, `ctx.error`), with the position and wording of Python's json
 * module that the reference was written against; V8's messages carry neither.
 */
export function parseJsonText(text: string): unknown {
  const breach = firstOutOfBounds(text)
  if (breach !== undefined) {
    throw validationError([
      { type: 'json_invalid', loc: ['body', breach.position], msg: 'JSON decode error', input: {}, ctx: { error: JSON_BOUND_ERRORS[breach.bound] } },
    ])
  }
  try {
    return JSON.parse(text)
  } catch {
    const { position, message } = locateJsonError(text)
    throw validationError([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: message } }])
  }
}

/** Reads, size-checks and parses a request body; an empty body is `undefined`. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const contentType = request.headers['content-type'] ?? null
  const length = request.headers['content-length']
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) throw new AppError('payload_too_large')
  const bytes = await readNodeBody(request)
  if (bytes.length === 0) return undefined
  if (contentType !== null && !isJsonContentType(contentType)) throw new AppError('unsupported_media_type')
  if (!isUtf8(bytes)) {
    throw validationError([
      { type: 'json_invalid', loc: ['body', firstInvalidUtf8(bytes)], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid UTF-8' } },
    ])
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  return parseJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
}

/**
 * The first place the text goes past MAX_JSON_DEPTH, MAX_JSON_KEYS_PER_OBJECT or MAX_JSON_KEYS,
 * if any, in one linear pass (strings skipped). A string is a key when it follows `{` or a comma
 * inside an object. Text that is not JSON is only ever scanned once; JSON.parse refuses it after.
 */
export function firstOutOfBounds(text: string): JsonBoundBreach | undefined {
  // Per open bracket: the keys of an object so far, or -1 for an array.
  const keys = new Int32Array(MAX_JSON_DEPTH + 1)
  let depth = 0
  let total = 0
  let inString = false
  let keyNext = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
      if (keyNext) {
        keyNext = false
        if (++keys[depth]! > MAX_JSON_KEYS_PER_OBJECT) return { position: i, bound: 'keysPerObject' }
        if (++total > MAX_JSON_KEYS) return { position: i, bound: 'keys' }
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return { position: i, bound: 'depth' }
      keys[depth] = c === 0x7b ? 0 : -1
      keyNext = c === 0x7b
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--
      keyNext = false
    } else if (c === 0x2c) keyNext = depth > 0 && keys[depth]! >= 0
    else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) keyNext = false
  }
  return undefined
}

function isJsonContentType(value: string): boolean {
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

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

/**
 * Where the first invalid UTF-8 sequence starts (as Python reports a UnicodeDecodeError's position),
 * in one pass: a lead byte says how many continuation bytes follow and what range the first may
 * take, which also refuses overlong forms, surrogates and code points above U+10FFFF.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      i++
      continue
    }
    let count: number
    let min = 0x80
    let max = 0xbf
    if (lead >= 0xc2 && lead <= 0xdf) count = 1
    else if (lead >= 0xe0 && lead <= 0xef) {
      count = 2
      if (lead === 0xe0) min = 0xa0
      else if (lead === 0xed) max = 0x9f
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      count = 3
      if (lead === 0xf0) min = 0x90
      else if (lead === 0xf4) max = 0x8f
    } else return i
    for (let k = 1; k <= count; k++) {
      const next = bytes[i + k]
      if (next === undefined || next < (k === 1 ? min : 0x80) || next > (k === 1 ? max : 0xbf)) return i
    }
    i += count + 1
  }
  return bytes.length
}

class JsonSyntax extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message)
  }
}

/** A small JSON scanner used only after JSON.parse has failed, to say where and why. */
export function locateJsonError(text: string): { position: number; message: string } {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const fail = (message: string, at = i): never => {
    throw new JsonSyntax(at, message)
  }
  const value = (depth: number): void => {
    if (depth > 10_000) fail('Maximum nesting depth exceeded')
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes')
        string()
        ws()
        if (text[i] !== ':') fail("Expecting ':' delimiter")
        i++
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail("Expecting ',' delimiter")
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail("Expecting ',' delimiter")
      }
    }
    if (c === '"') return string()
    if (text.startsWith('true', i)) return void (i += 4)
    if (text.startsWith('false', i)) return void (i += 5)
    if (text.startsWith('null', i)) return void (i += 4)
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (m && m[0] !== '-' && m[0].length > 0) return void (i += m[0].length)
    fail('Expecting value')
  }
  const string = () => {
    const start = i
    i++
    while (i < text.length) {
      const ch = text.charCodeAt(i)
      if (ch === 0x22) {
        i++
        return
      }
      if (ch === 0x5c) {
        const esc = text[i + 1]
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape', i + 1)
          i += 6
          continue
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('Invalid \\escape', i)
        i += 2
        continue
      }
      if (ch < 0x20) fail('Invalid control character at', i)
      i++
    }
    fail('Unterminated string starting at', start)
  }
  try {
    value(0)
    ws()
    if (i < text.length) fail('Extra data')
    return { position: Math.min(i, text.length), message: 'Expecting value' }
  } catch (e) {
    if (e instanceof JsonSyntax) return { position: e.position, message: e.message }
    if (e instanceof RangeError) return { position: i, message: 'Maximum nesting depth exceeded' }
    throw e
  }
}
