import type { AuthContext, DpopRequest } from './auth.ts'

/**
 * The process-wide services every operation reaches through `ctx.services`, built once at start.
 * `src/app/services.ts` declares them (it merges its `AppServices` into this interface) and builds
 * them: this layer names none of them, so no lower layer's import points up at the modules. A
 * lower layer that needs one takes it as a parameter of the narrow type it defines.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

/** What every operation receives, from either face. */
export interface RequestContext {
  requestId: string
  /** The caller's address (see `TRUST_PROXY`), for per-address rate limits. */
  clientIp: string
  services: Services
  auth: AuthContext
  /** The request's DPoP proof and what it must match, for login and refresh (docs/dpop.md). */
  dpop: DpopRequest | undefined
  /** What the infrastructure records about this request (log line, response headers). */
  state: RequestState
  /**
   * The connection of a response written by someone else (Yoga's): what a long-lived answer, a
   * subscription, watches to see its client leave or stop reading (docs/events.md).
   */
  response?: ResponseWatch
}

/** A response under way, as seen by what feeds it. */
export interface ResponseWatch {
  /** Bytes written but not yet taken by the socket. */
  readonly buffered: number
  /** Called once when the response is over: sent in full, or its connection gone. At once if it is. */
  onClose(listener: () => void): void
  /** Cuts the connection unless the response is sent in full within `graceMs`. */
  cutUnlessFinished(graceMs: number): void
}

/** Where a caller stands against one limit, as the IETF RateLimit-* headers say it. */
export interface RateLimitStatus {
  limit: number
  remaining: number
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number
}

/** What the infrastructure learns about one HTTP request while serving it, for its response and log line. */
export interface RequestState {
  id: string
  startedAt: bigint
  clientIp: string
  /** The authenticated client (`sub`), once a token was verified. */
  clientId: string | undefined
  /** The tightest rate limit the request counted against, for the RateLimit-* headers. */
  rateLimit: RateLimitStatus | undefined
  /** GraphQL operation name, when valid. */
  operationName: string | undefined
  /** The response carries tokens: no cache may store it (RFC 6749 §5.1). */
  carriesTokens: boolean
  /** Calls counted against the anonymous limit so far (a request counts once, by its cost). */
  anonymousCalls: number
}
