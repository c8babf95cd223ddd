import { isUtf8 } from 'node:buffer'
import type { IncomingMessage } from 'node:http'

import { AppError, MAX_DETAIL_ITEMS, validationError } from '../core/errors.ts'
import { firstInvalidUtf8, locateJsonError } from './json-error-location.ts'
import { MAX_BODY_BYTES, readNodeBody } from './request-body.ts'

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
  const scanned = scanJson(text)
  if ('breach' in scanned) {
    const { breach } = scanned
    throw validationError([
      { type: 'json_invalid', loc: ['body', breach.position], msg: 'JSON decode error', input: {}, ctx: { error: JSON_BOUND_ERRORS[breach.bound] } },
    ])
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const { position, message } = locateJsonError(text)
    throw validationError([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: message } }])
  }
  // JSON.parse keeps the last of a key given twice in one object, so a body with a duplicate parses
  // to fewer keys than its text gives; only then is the text scanned again to say where.
  if (keysIn(value) !== scanned.keys) {
    const duplicates = duplicateKeys(text)
    if (duplicates.length > 0)
      throw validationError(duplicates.map((loc) => ({ type: 'value_error.json.duplicate_key', loc: ['body', ...loc], msg: DUPLICATE_KEY })))
  }
  return value
}

/** The keys of every object in a parsed value (its depth is bounded by MAX_JSON_DEPTH). */
function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  let count = 0
  if (Array.isArray(value)) {
    for (const item of value) count += keysIn(item)
    return count
  }
  for (const key of Object.keys(value)) count += 1 + keysIn((value as Record<string, unknown>)[key])
  return count
}

const DUPLICATE_KEY = 'Duplicate key in JSON object'

/** Whether `text` parses as JSON (duplicateKeys reads only valid JSON). */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * Where valid JSON `text` gives a key twice in one object (JSON.parse keeps the last, so
 * `"side":"sell","side":"buy"` would read as a buy): per duplicated key, the path to its object
 * (keys, array indexes) and the key, in text order, each key once per object, at most
 * MAX_DETAIL_ITEMS. One linear pass; keys compare as parsed, so `"a"` and `"\u0061"` are one key.
 * Bounded by the checks before parsing: MAX_JSON_DEPTH frames, MAX_JSON_KEYS keys in all.
 */
export function duplicateKeys(text: string): (string | number)[][] {
  const found: (string | number)[][] = []
  // Per open bracket: an object's keys so far (how often each came), or null for an array; and
  // where in it the scan is, its current key or index.
  const seen: (Map<string, number> | null)[] = []
  const at: (string | number)[] = []
  let keyNext = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      const start = i
      let escaped = false
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true
          i++
        }
      }
      if (!keyNext) continue
      keyNext = false
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i)
      const keys = seen[seen.length - 1]!
      const count = (keys.get(key) ?? 0) + 1
      keys.set(key, count)
      at[at.length - 1] = key
      if (count === 2 && found.push([...at.slice(0, -1), key]) >= MAX_DETAIL_ITEMS) return found
    } else if (c === 0x7b || c === 0x5b) {
      seen.push(c === 0x7b ? new Map() : null)
      at.push(c === 0x7b ? '' : 0)
      keyNext = c === 0x7b
    } else if (c === 0x7d || c === 0x5d) {
      seen.pop()
      at.pop()
      keyNext = false
    } else if (c === 0x2c) {
      if (seen[seen.length - 1] === null) at[at.length - 1] = (at[at.length - 1] as number) + 1
      else keyNext = true
    }
  }
  return found
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
  const scanned = scanJson(text)
  return 'breach' in scanned ? scanned.breach : undefined
}

/** `firstOutOfBounds`'s pass, which also counts the keys of a text within the bounds. */
function scanJson(text: string): { breach: JsonBoundBreach } | { keys: number } {
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
        if (++keys[depth]! > MAX_JSON_KEYS_PER_OBJECT) return { breach: { position: i, bound: 'keysPerObject' } }
        if (++total > MAX_JSON_KEYS) return { breach: { position: i, bound: 'keys' } }
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return { breach: { position: i, bound: 'depth' } }
      keys[depth] = c === 0x7b ? 0 : -1
      keyNext = c === 0x7b
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--
      keyNext = false
    } else if (c === 0x2c) keyNext = depth > 0 && keys[depth]! >= 0
    else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) keyNext = false
  }
  return { keys: total }
}

function isJsonContentType(value: string): boolean {
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}
