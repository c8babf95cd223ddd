import { z } from 'zod'

import { MAX_DETAIL_ITEMS, validationError, type ValidationIssue } from './errors.ts'

/**
 * Zod is the single validator of every input; this module turns its issues into the reference's
 * pydantic-style `detail` items so both faces report the same `type`, `loc`, `msg` and `ctx`.
 *
 * Rules with a seed-defined type that zod has no code for raise a custom issue whose `params`
 * carry `{ type, ctx }` (see `customIssue`).
 */
export type Location = 'body' | 'query' | 'path'

interface CustomParams {
  type: string
  ctx?: Record<string, unknown>
}

/** Adds a custom issue with a seed/pydantic type to a zod refinement context. */
export function customIssue(
  ctx: { addIssue: (issue: z.core.$ZodRawIssue) => void; value?: unknown },
  issue: { path?: PropertyKey[]; type: string; msg: string; ctx?: Record<string, unknown>; input?: unknown },
) {
  ctx.addIssue({
    code: 'custom',
    message: issue.msg,
    path: issue.path ?? [],
    input: issue.input,
    params: { type: issue.type, ctx: issue.ctx } satisfies CustomParams,
  })
}

const typeNames: Record<string, [string, string]> = {
  string: ['type_error.str', 'str type expected'],
  number: ['type_error.number', 'value is not a valid number'],
  int: ['type_error.integer', 'value is not a valid integer'],
  boolean: ['type_error.bool', 'value could not be parsed to a boolean'],
  object: ['type_error.dict', 'value is not a valid dict'],
  array: ['type_error.list', 'value is not a valid list'],
}

function inputAt(root: unknown, path: PropertyKey[]): unknown {
  let value = root
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

// What `detail` echoes of a value it refuses: enough to recognise it, never a megabyte of it.
const MAX_ECHOED_TEXT = 1024
const MAX_ECHOED_JSON = 4096

/** `input` as a `detail` item carries it: long text cut short (with `…`), a large structure left out. */
function echoedInput(input: unknown): unknown {
  if (typeof input === 'string') return input.length > MAX_ECHOED_TEXT ? `${input.slice(0, MAX_ECHOED_TEXT)}…` : input
  if (input === null || typeof input !== 'object') return input
  return (JSON.stringify(input)?.length ?? 0) > MAX_ECHOED_JSON ? undefined : input
}

function issueToDetail(issue: z.core.$ZodIssue, location: Location, root: unknown): ValidationIssue[] {
  return withoutHugeInput(issueToDetailItems(issue, location, root))
}

function withoutHugeInput(items: ValidationIssue[]): ValidationIssue[] {
  for (const item of items) {
    if (!('input' in item)) continue
    const input = echoedInput(item.input)
    if (input === undefined) delete item.input
    else item.input = input
  }
  return items
}

/** The `type_error.enum` message for `values`, as zod's own enum issues are rendered. */
const enumMessage = (values: readonly string[]) => `value is not a valid enumeration member; permitted: ${values.map((v) => `'${v}'`).join(', ')}`

function issueToDetailItems(issue: z.core.$ZodIssue, location: Location, root: unknown): ValidationIssue[] {
  const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)))
  const loc = [location, ...path]
  const input = 'input' in issue && issue.input !== undefined ? issue.input : inputAt(root, issue.path)
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return [{ type: 'missing', loc, msg: 'Field required' }]
      if (input === null) return [{ type: 'type_error.none.not_allowed', loc, msg: 'none is not an allowed value', input }]
      const [type, msg] = typeNames[issue.expected] ?? [`type_error.${issue.expected}`, `value is not a valid ${issue.expected}`]
      return [{ type, loc, msg, input }]
    }
    case 'too_big': {
      const limit = Number(issue.maximum)
      if (issue.origin === 'string') {
        return [{ type: 'value_error.any_str.max_length', loc, msg: `ensure this value has at most ${limit} characters`, input, ctx: { limit_value: limit } }]
      }
      return [{ type: 'value_error.number.not_le', loc, msg: `ensure this value is less than or equal to ${limit}`, input, ctx: { limit_value: limit } }]
    }
    case 'too_small': {
      const limit = Number(issue.minimum)
      if (issue.origin === 'string') {
        return [{ type: 'value_error.any_str.min_length', loc, msg: `ensure this value has at least ${limit} characters`, input, ctx: { limit_value: limit } }]
      }
      return [{ type: 'value_error.number.not_ge', loc, msg: `ensure this value is greater than or equal to ${limit}`, input, ctx: { limit_value: limit } }]
    }
    case 'invalid_value': {
      // zod reports an absent enum field as a wrong value; the reference calls it missing.
      if (input === undefined) return [{ type: 'missing', loc, msg: 'Field required' }]
      const values = issue.values.map(String)
      return [
        {
          type: 'type_error.enum',
          loc,
          msg: enumMessage(values),
          input,
          ctx: { enum_values: values },
        },
      ]
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ type: 'value_error.extra', loc: [...loc, key], msg: 'extra fields not permitted' }))
    case 'invalid_format': {
      if (issue.format === 'email') return [{ type: 'value_error.email', loc, msg: 'value is not a valid email address', input }]
      if (issue.format === 'datetime') return [{ type: 'value_error.datetime', loc, msg: 'invalid datetime format', input }]
      if (issue.format === 'uuid') return [{ type: 'type_error.uuid', loc, msg: 'value is not a valid uuid', input }]
      if (issue.format === 'regex') return [{ type: 'value_error.str.regex', loc, msg: issue.message, input, ctx: { pattern: regexSource(issue.pattern) } }]
      return [{ type: `value_error.${issue.format}`, loc, msg: issue.message, input }]
    }
    case 'custom': {
      const params = issue.params as CustomParams | undefined
      const item: ValidationIssue = { type: params?.type ?? 'value_error', loc, msg: issue.message, input }
      if (params?.ctx) item.ctx = params.ctx
      return [item]
    }
    default:
      return [{ type: 'value_error', loc, msg: issue.message, input }]
  }
}

/** zod reports a pattern as a JS literal (`/^a+$/u`); pydantic's ctx carries the bare pattern (`^a+$`). */
function regexSource(pattern: string | undefined): string | undefined {
  return pattern === undefined ? undefined : (/^\/(.*)\/[a-z]*$/s.exec(pattern)?.[1] ?? pattern)
}

/** The first MAX_DETAIL_ITEMS items of `detail` (the rest are never built: a body may carry 10,000 unknown keys). */
export function zodErrorToDetail(error: z.ZodError, location: Location, root: unknown): ValidationIssue[] {
  const detail: ValidationIssue[] = []
  for (const issue of error.issues) {
    if (detail.length >= MAX_DETAIL_ITEMS) break
    detail.push(...issueToDetail(capKeys(issue, MAX_DETAIL_ITEMS - detail.length), location, root))
  }
  return detail.slice(0, MAX_DETAIL_ITEMS)
}

const capKeys = (issue: z.core.$ZodIssue, max: number): z.core.$ZodIssue =>
  issue.code === 'unrecognized_keys' && issue.keys.length > max ? { ...issue, keys: issue.keys.slice(0, max) } : issue

/** Validates `input` with `schema`; a failure throws a 422 AppError whose `loc`s start with `location`. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, location: Location): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw validationError(zodErrorToDetail(result.error, location, input))
}

/** Query strings arrive as text; these accept text (REST) or typed values (GraphQL) alike. */
export const queryInt = z.unknown().transform((v, ctx) => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v
  if (typeof v === 'string' && /^[+-]?\d{1,15}$/.test(v.trim())) return Number(v)
  customIssue(ctx, { type: 'type_error.integer', msg: 'value is not a valid integer', input: v })
  return z.NEVER
})

export const queryBool = z.preprocess((v) => {
  if (typeof v !== 'string') return v
  const s = v.toLowerCase()
  if (['true', '1', 'yes', 'on'].includes(s)) return true
  if (['false', '0', 'no', 'off'].includes(s)) return false
  return v
}, z.boolean())

// `2026-11-25T21:30:00.123456+03:30` is 32 characters; longer text is refused before the pattern runs.
const MAX_DATETIME_LENGTH = 40
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i

/** ISO 8601 with a time part and a zone (`Z` or `±hh:mm`); normalised to a UTC timestamp string. */
export const isoDateTime = z
  .string()
  .max(MAX_DATETIME_LENGTH, { abort: true })
  .superRefine((s, ctx) => {
    if (!ISO_DATETIME.test(s) || Number.isNaN(Date.parse(s.replace(' ', 'T')))) {
      customIssue(ctx, { type: 'value_error.datetime', msg: 'invalid datetime format', input: s })
    }
  })
  .transform((s) => toUtcTimestamp(s))

/** `2026-11-25T21:30:00.123456+03:30` → `2026-11-25 18:00:00.123456` (microseconds kept). */
export function toUtcTimestamp(s: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(s)!
  const [, date, hm, sec = '00', frac = '', zone] = m
  const ms = Date.parse(`${date}T${hm}:${sec}${zone!.toUpperCase() === 'Z' ? 'Z' : zone!.length === 5 ? `${zone!.slice(0, 3)}:${zone!.slice(3)}` : zone}`)
  const iso = new Date(ms).toISOString() // yyyy-mm-ddThh:mm:ss.000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${frac.padEnd(6, '0')}`
}

/**
 * A query filter of one value or a comma-separated list (`status=open,partially_filled`), parsed to
 * the distinct values. Text longer than every value listed once is refused before it is split. A
 * GraphQL list argument arrives joined the same way (graphql/args.ts), so both faces report the
 * same `detail` for the same mistake.
 */
export function enumListParam<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  const pattern = `^(${values.join('|')})(,(${values.join('|')}))*$`
  return z
    .string()
    .max(values.join(',').length, { abort: true })
    .transform((text, ctx) => {
      const items = text.split(',')
      for (const item of items) {
        if (!values.includes(item)) {
          customIssue(ctx, { type: 'type_error.enum', msg: enumMessage(values), ctx: { enum_values: [...values] }, input: item })
          return z.NEVER
        }
      }
      return [...new Set(items)] as T[number][]
    })
    .meta({ override: { type: 'string', pattern, example: values.slice(0, 2).join(',') }, description })
}
