/**
 * The one error model. Operations throw `AppError`s; each face (REST, GraphQL) renders them once.
 */
export type ErrorKind =
  | 'invalid_credentials'
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'validation'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'events_expired'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'resync'
  | 'internal'
  | 'service_unavailable'
  | 'gateway_timeout'
  | 'persisted_query_not_found'
  | 'persisted_query_only'

/** One item of a 422 `detail` array (docs/api.md, "Errors"). */
export interface ValidationIssue {
  type: string
  loc: (string | number)[]
  msg: string
  input?: unknown
  ctx?: Record<string, unknown>
}

interface KindInfo {
  status: number
  error: string
  graphqlCode: string
  defaultMessage: string
}

export const kinds: Record<ErrorKind, KindInfo> = {
  invalid_credentials: { status: 401, error: 'invalid_credentials', graphqlCode: 'UNAUTHENTICATED', defaultMessage: 'Authentication failed' },
  bad_request: { status: 400, error: 'bad_request', graphqlCode: 'BAD_REQUEST', defaultMessage: 'Bad request' },
  unauthenticated: { status: 401, error: 'Unauthorized', graphqlCode: 'UNAUTHENTICATED', defaultMessage: 'No token provided' },
  forbidden: { status: 403, error: 'permission_denied', graphqlCode: 'FORBIDDEN', defaultMessage: 'Access denied' },
  validation: { status: 422, error: 'validation_error', graphqlCode: 'BAD_USER_INPUT', defaultMessage: 'Validation failed' },
  not_found: { status: 404, error: 'not_found', graphqlCode: 'NOT_FOUND', defaultMessage: 'Not found' },
  method_not_allowed: { status: 405, error: 'method_not_allowed', graphqlCode: 'BAD_REQUEST', defaultMessage: 'Method not allowed' },
  conflict: { status: 409, error: 'conflict', graphqlCode: 'CONFLICT', defaultMessage: 'Conflict' },
  events_expired: { status: 410, error: 'events_expired', graphqlCode: 'EVENTS_EXPIRED', defaultMessage: 'These events are no longer kept' },
  payload_too_large: { status: 413, error: 'payload_too_large', graphqlCode: 'BAD_REQUEST', defaultMessage: 'Request body is too large' },
  unsupported_media_type: { status: 415, error: 'unsupported_media_type', graphqlCode: 'BAD_REQUEST', defaultMessage: 'Content-Type must be application/json' },
  rate_limited: { status: 429, error: 'rate_limited', graphqlCode: 'RATE_LIMITED', defaultMessage: 'Too many requests' },
  // Only ends a stream (GraphQL; REST sends `event: resync`), never answers a request.
  resync: { status: 409, error: 'resync', graphqlCode: 'RESYNC', defaultMessage: 'The stream fell too far behind: resume from the last sequence received' },
  internal: { status: 500, error: 'internal_error', graphqlCode: 'INTERNAL_SERVER_ERROR', defaultMessage: 'Internal server error' },
  service_unavailable: { status: 503, error: 'service_unavailable', graphqlCode: 'SERVICE_UNAVAILABLE', defaultMessage: 'Service unavailable' },
  gateway_timeout: { status: 504, error: 'gateway_timeout', graphqlCode: 'GATEWAY_TIMEOUT', defaultMessage: 'Gateway timeout' },
  // GraphQL only: a `documentId` the service does not know, and document text where only ids are taken.
  persisted_query_not_found: {
    status: 400,
    error: 'persisted_query_not_found',
    graphqlCode: 'PERSISTED_QUERY_NOT_FOUND',
    defaultMessage: 'Persisted document not found',
  },
  persisted_query_only: {
    status: 400,
    error: 'persisted_query_only',
    graphqlCode: 'PERSISTED_QUERY_ONLY',
    defaultMessage: 'Only persisted documents are accepted',
  },
}

export class AppError extends Error {
  readonly kind: ErrorKind
  readonly detail: ValidationIssue[] | undefined
  readonly headers: Record<string, string> | undefined
  /** The `error` code when it is not the kind's: a refused DPoP proof is a 401 `invalid_dpop_proof` (RFC 9449 §7.1). */
  readonly code: string

  constructor(
    kind: ErrorKind,
    message?: string,
    options: { detail?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown; code?: string } = {},
  ) {
    super(message ?? kinds[kind].defaultMessage, { cause: options.cause })
    this.name = 'AppError'
    this.kind = kind
    this.code = options.code ?? kinds[kind].error
    this.detail = options.detail
    this.headers = options.headers
  }

  get status(): number {
    return kinds[this.kind].status
  }
}

/** Caller text echoed in a message, cut short: an answer never carries a megabyte of what was sent. */
export function echoed(text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

export const unauthenticated = (message: string) => new AppError('unauthenticated', message)
export const forbidden = (message: string) => new AppError('forbidden', message)
export const notFound = (message = 'Not found') => new AppError('not_found', message)
export const conflict = (message: string) => new AppError('conflict', message)
/**
 * A 422's `detail` lists at most this many issues, the first ones in field order: a body of a
 * thousand unknown keys is told about twenty of them, not answered with megabytes
 * (docs/operations.md, "Abuse limits").
 */
export const MAX_DETAIL_ITEMS = 20

export const validationError = (detail: ValidationIssue[]) => new AppError('validation', undefined, { detail: detail.slice(0, MAX_DETAIL_ITEMS) })

/** The REST body of an error: the reference's shapes, extended to the other kinds in the same shape (docs/api.md, "Errors"). */
export function restErrorBody(error: AppError): unknown {
  if (error.kind === 'validation') return { detail: error.detail ?? [] }
  if (error.kind === 'invalid_credentials') {
    return { message: { en: error.message }, error: kinds[error.kind].error, detail: error.message }
  }
  return { message: error.message, error: error.code, detail: error.message }
}

// Connection lost or refused (08, 57P01-57P05), database missing (3D000), out of resources
// (53: disk full, memory, connections), I/O error (58030), a standby after failover (25006).
const unavailableStates = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '3D000', '58030', '25006'])
const unavailableNetworkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'])
const unavailableMessages = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /connection is closed/i,
  /PGlite is closed/i,
  /driver has already been destroyed/i,
  // 55000 is also raised for unrelated states; only this one means the database refuses connections.
  /is not currently accepting connections/i,
]

/**
 * Turns anything thrown into an AppError: database outages become 503, statement timeouts 504,
 * everything unrecognised 500 (its details are logged, never rendered).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const e = error as { code?: unknown; message?: unknown } | null
  const code = typeof e?.code === 'string' ? e.code : ''
  const message = typeof e?.message === 'string' ? e.message : ''
  if (code === '57014') return new AppError('gateway_timeout', 'The database did not answer in time', { cause: error })
  // Text PostgreSQL cannot store (a NUL character, an unpaired surrogate) came from the caller.
  if (code === '22021' || code === '22P05') return new AppError('bad_request', 'Text must be valid Unicode without NUL characters', { cause: error })
  if (
    code.startsWith('08') ||
    code.startsWith('53') ||
    unavailableStates.has(code) ||
    unavailableNetworkCodes.has(code) ||
    unavailableMessages.some((re) => re.test(message))
  ) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable', { headers: { 'retry-after': '5' }, cause: error })
  }
  return new AppError('internal', 'Internal server error', { cause: error })
}
