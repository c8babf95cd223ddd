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
  /** Counted once against the anonymous limit already. */
  anonymousCounted: boolean
}
