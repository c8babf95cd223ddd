import { z } from 'zod'

import { MESSAGES } from '../core/auth.ts'
import { type ErrorKind, kinds } from '../core/errors.ts'

/**
 * How a REST route describes itself for the OpenAPI document (docs/contracts.md), next to its
 * handler, and the pieces every route shares: error bodies, headers, the 401 messages, the 422
 * `detail` item. `src/app/openapi.ts` assembles the document from the route table, adding the
 * answers a route's access, scope, parameters and body imply, so a route lists only what is its own.
 */
export interface RouteDoc {
  /** Unique; code generators name their functions after it. */
  operationId: string
  summary: string
  description?: string
  tag: ApiTag
  deprecated?: boolean
  /** The scope the operation requires: documented, and implies 403 `permission_denied`. */
  scope?: string
  /** Path parameters, one key per `:name` of the path. */
  params?: z.ZodObject
  /** Query parameters: the list schema the operation validates with (unknown ones are 422). */
  query?: z.ZodObject
  /** Request headers it reads beyond `Authorization`. */
  requestHeaders?: z.ZodObject
  /** The JSON body: the schema the operation validates with. Implies 400, 413, 415 and 422. */
  body?: z.ZodType
  bodyExamples?: Examples
  /** The route's own answers: its successes, and errors whose body or meaning is particular to it. */
  responses: Partial<Record<number, ResponseDoc>>
  /** Further error kinds it answers, each with when (the shared body of its status). */
  errors?: Partial<Record<DocumentedErrorKind, string>>
  /** Whether it reaches the database, so may answer 503/504 (default: every route but `public` ones). */
  database?: boolean
}

export interface ResponseDoc {
  description: string
  /** A JSON body. */
  body?: z.ZodType
  /** A body of another media type (an HTML page, a script). */
  content?: Record<string, z.ZodType>
  /** Headers beyond the ones every answer carries. */
  headers?: Record<string, z.ZodType>
  examples?: Examples
}

export type Examples = Record<string, { summary: string; value: unknown }>

export type ApiTag = keyof typeof API_TAGS

export const API_TAGS = {
  auth: 'Log in with client credentials, refresh tokens, read your client record and the public signing keys.',
  exchange: 'Tradable symbols and their rules; placing, listing and cancelling orders; fills, the book, trades and live events.',
  users: "The tenant's users: the people who act for a bank.",
  admin: "The exchange center's own: the audit trail.",
  system: 'Health checks, this document and the API reference page.',
} as const

// `resync` and the persisted-document kinds are GraphQL's only.
export type DocumentedErrorKind = Exclude<
  ErrorKind,
  'validation' | 'unauthenticated' | 'invalid_credentials' | 'rate_limited' | 'internal' | 'resync' | 'persisted_query_not_found' | 'persisted_query_only'
>

// --- Headers ---

export const requestIdHeader = z.string().meta({
  header: { id: 'X-Request-Id' },
  description: "The request's id: the caller's own `X-Request-Id` when it is 1–128 of `[A-Za-z0-9._:-]`, else a new UUID. Quote it when reporting a problem.",
  example: '0f5b1c9e-6a43-4c3e-9d7e-8c2b1f7a0d11',
})

const rateLimitHeader = (id: string, description: string, example: number) => z.int().min(0).optional().meta({ header: { id }, description, example })

/** The IETF RateLimit headers: present whenever the request counted against a limit (docs/operations.md, "Rate limits"). */
export const rateLimitHeaders = {
  'RateLimit-Limit': rateLimitHeader('RateLimit-Limit', 'Calls allowed per window by the tightest limit this request counted against.', 1200),
  'RateLimit-Remaining': rateLimitHeader('RateLimit-Remaining', 'Calls left in the current window.', 1187),
  'RateLimit-Reset': rateLimitHeader('RateLimit-Reset', 'Seconds until the window resets.', 42),
}

export const retryAfterHeader = z
  .int()
  .min(1)
  .meta({ header: { id: 'Retry-After' }, description: 'Seconds to wait before trying again.', example: 5 })

/** RFC 6749 §5.1: answers carrying tokens must not be cached. */
export const noStoreHeaders = {
  'Cache-Control': z.literal('no-store').meta({ description: 'Answers carrying tokens must not be stored (RFC 6749 §5.1).' }),
  Pragma: z.literal('no-cache'),
}

// --- Error bodies (docs/api.md, "Errors") ---

export const errorCode = (kind: ErrorKind) => z.literal(kinds[kind].error)

/** `{message, error, detail}` with `detail` repeating `message`: the reference's token-failure shape, for every other kind. */
function errorBody(id: string, kind: ErrorKind, example: string, message: z.ZodType = z.string()) {
  return z.object({ message, error: errorCode(kind), detail: message }).meta({
    id,
    description: `\`error\` is \`${kinds[kind].error}\`; \`detail\` repeats \`message\`.`,
    example: { message: example, error: kinds[kind].error, detail: example },
  })
}

/** Every 401 message a protected route answers: the reference's four, word for word, and a revoked token's. */
export const tokenFailureMessage = z.enum(Object.values(MESSAGES)).meta({ id: 'TokenFailureMessage' })

/** A missing or refused DPoP proof, or a DPoP-bound token sent without one (docs/dpop.md); `WWW-Authenticate: DPoP` names it. */
export const dpopFailureBody = z
  .object({ message: z.string(), error: z.literal('invalid_dpop_proof'), detail: z.string() })
  .meta({ id: 'DpopProofFailure', example: { message: 'DPoP proof is missing', error: 'invalid_dpop_proof', detail: 'DPoP proof is missing' } })

/** Every 401 of a protected route: a missing or refused token (the reference's), or a refused DPoP proof. */
export const tokenFailureBody = z
  .union([errorBody('BearerTokenFailure', 'unauthenticated', MESSAGES.missing, tokenFailureMessage), dpopFailureBody])
  .meta({ id: 'TokenFailure', example: { message: MESSAGES.missing, error: 'Unauthorized', detail: MESSAGES.missing } })

/** A failed login: `message` is an object with an `en` text (reference 7.1). */
export const loginFailureBody = z
  .object({
    message: z.object({ en: z.literal(kinds.invalid_credentials.defaultMessage) }),
    error: errorCode('invalid_credentials'),
    detail: z.literal(kinds.invalid_credentials.defaultMessage),
  })
  .meta({
    id: 'LoginFailure',
    example: { message: { en: 'Authentication failed' }, error: 'invalid_credentials', detail: 'Authentication failed' },
  })

/** One item of a 422 `detail` array, pydantic's shape (reference 7.3). */
export const validationIssue = z
  .object({
    type: z.string().meta({ description: 'What rule was broken: `missing`, `value_error.number.not_le`, `type_error.enum`, `json_invalid`, ...' }),
    loc: z.array(z.union([z.string(), z.int()])).meta({
      description:
        'Where: `["body", "<field>"]`, `["query", "<name>"]`, `["body", <position>]` for JSON that does not parse, or `["body", ...<path>, "<key>"]` for a key given twice in one object (`value_error.json.duplicate_key`).',
    }),
    msg: z.string(),
    input: z.unknown().optional().meta({ description: 'The value refused (long text cut short; large structures left out).' }),
    ctx: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "The rule's parameters: `limit_value`, `enum_values`, `multiple_of`, `decimal_places`, `pattern`, `error`." }),
  })
  .meta({
    id: 'ValidationIssue',
    example: {
      type: 'value_error.number.not_le',
      loc: ['query', 'limit'],
      msg: 'ensure this value is less than or equal to 100',
      input: '101',
      ctx: { limit_value: 100 },
    },
  })

export const validationErrorBody = z.object({ detail: z.array(validationIssue) }).meta({ id: 'ValidationError' })

export const errorBodies = {
  bad_request: errorBody('BadRequestError', 'bad_request', 'Text must be valid Unicode without NUL characters'),
  forbidden: errorBody('PermissionDenied', 'forbidden', 'Access denied: requires orders:write'),
  not_found: errorBody('NotFoundError', 'not_found', 'No route for /api/nope'),
  method_not_allowed: errorBody('MethodNotAllowedError', 'method_not_allowed', 'Method PUT is not allowed here'),
  conflict: errorBody('ConflictError', 'conflict', 'Order is already cancelled'),
  events_expired: errorBody('EventsExpiredError', 'events_expired', 'Events after 12 are no longer kept (7 days); the oldest kept is 5230'),
  payload_too_large: errorBody('PayloadTooLargeError', 'payload_too_large', 'Request body is too large', z.literal(kinds.payload_too_large.defaultMessage)),
  unsupported_media_type: errorBody(
    'UnsupportedMediaTypeError',
    'unsupported_media_type',
    'Content-Type must be application/json',
    z.literal(kinds.unsupported_media_type.defaultMessage),
  ),
  rate_limited: errorBody('RateLimitedError', 'rate_limited', 'Too many requests'),
  internal: errorBody('InternalError', 'internal', 'Internal server error', z.literal(kinds.internal.defaultMessage)),
  service_unavailable: errorBody('ServiceUnavailableError', 'service_unavailable', 'The service is temporarily unavailable'),
  gateway_timeout: errorBody('GatewayTimeoutError', 'gateway_timeout', 'The database did not answer in time'),
} satisfies Partial<Record<ErrorKind, z.ZodType>>

/**
 * What each route's 404 says, word for word as its operation answers (docs/api.md, "Errors"), for
 * the example on /docs: keyed by the path parameter naming the missing thing and the segment before
 * it (`/api/exchange/v1/orders/:uid` → `orders/:uid`), or the whole path when it has none.
 */
const NOT_FOUND_MESSAGES: Record<string, string> = {
  'orders/:uid': 'Order 0e6f1a7c-2b3d-4e5f-8a9b-1c2d3e4f5a6b not found',
  'by-client-id/:client_order_id': 'Order bank-42-0001 not found',
  'symbols/:symbol': 'Symbol NOPE-IRR not found',
  'accounts/:currency': 'Currency XYZ not found',
  'withdrawals/:uid': 'Withdrawal 0e6f1a7c-2b3d-4e5f-8a9b-1c2d3e4f5a6b not found',
  'webhooks/:uid': 'Webhook 0e6f1a7c-2b3d-4e5f-8a9b-1c2d3e4f5a6b not found',
  'users/:uid': 'User not found',
  'users/:client_id': 'Client not found',
  'assets/:file': 'No asset nope.js',
  '/': 'See /graphql for GraphQL and GraphiQL, /api/... for REST, and /docs for its reference',
}

/** The example of `path`'s 404 answer; a route that answers 404 must have its message above. */
export function notFoundExamples(path: string): Examples {
  const parts = path.split('/')
  let last = parts.length - 1
  while (last >= 0 && !parts[last]!.startsWith(':')) last--
  const key = last < 1 ? path : `${parts[last - 1]}/${parts[last]}`
  const message = NOT_FOUND_MESSAGES[key]
  if (message === undefined) throw new Error(`No 404 example for ${path}: add its message to NOT_FOUND_MESSAGES`)
  return { not_found: { summary: message, value: { message, error: kinds.not_found.error, detail: message } } }
}

/** Examples of the reference's 401 answers, one per message. */
export const tokenFailureExamples: Examples = Object.fromEntries([
  ...Object.entries(MESSAGES).map(([key, message]) => [key, { summary: message, value: { message, error: 'Unauthorized', detail: message } }]),
  ['dpop', { summary: 'A DPoP-bound token without a valid proof', value: dpopFailureBody.meta()!.example }],
])

/** Examples of the reference's 422 answers (7.3). */
export const validationExamples: Examples = {
  missing: { summary: 'A required field is absent', value: { detail: [{ type: 'missing', loc: ['body', 'client_id'], msg: 'Field required' }] } },
  json_invalid: {
    summary: 'The body is not valid JSON',
    value: {
      detail: [
        { type: 'json_invalid', loc: ['body', 1], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting property name enclosed in double quotes' } },
      ],
    },
  },
  not_le: {
    summary: 'A query parameter above its maximum',
    value: {
      detail: [
        {
          type: 'value_error.number.not_le',
          loc: ['query', 'limit'],
          msg: 'ensure this value is less than or equal to 100',
          input: '101',
          ctx: { limit_value: 100 },
        },
      ],
    },
  },
  extra: {
    summary: 'An unknown query parameter',
    value: { detail: [{ type: 'value_error.extra', loc: ['query', 'page'], msg: 'extra fields not permitted' }] },
  },
  datetime: {
    summary: 'A date-time without a time or zone',
    value: { detail: [{ type: 'value_error.datetime', loc: ['query', 'created_at_from'], msg: 'invalid datetime format', input: '2026-01-01' }] },
  },
  enum: {
    summary: 'A value outside an enumeration',
    value: {
      detail: [
        {
          type: 'type_error.enum',
          loc: ['body', 'side'],
          msg: "value is not a valid enumeration member; permitted: 'buy', 'sell'",
          input: 'hold',
          ctx: { enum_values: ['buy', 'sell'] },
        },
      ],
    },
  },
}
