import { randomUUID } from 'node:crypto'
import { clientIp } from './client-ip.ts'
import { tighter, type RateLimitStatus } from './rate-limits.ts'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

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
}

export class RequestStates {
  #states = new WeakMap<Request, RequestState>()

  constructor(private readonly trustProxyHops: number) {}

  /** An incoming `X-Request-Id` is kept when it is sane, so a bank can trace a call end to end. */
  start(request: Request, socketAddress: string | undefined): RequestState {
    const incoming = request.headers.get('x-request-id')
    const state: RequestState = {
      id: incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID(),
      startedAt: process.hrtime.bigint(),
      clientIp: clientIp(socketAddress, request.headers.get('x-forwarded-for'), this.trustProxyHops),
      clientId: undefined,
      rateLimit: undefined,
      operationName: undefined,
    }
    this.#states.set(request, state)
    return state
  }

  /**
   * The state of a request. One answered before `start` ran (CORS preflight, the GraphiQL page:
   * Yoga's own plugins come first) gets a fresh one, its latency unknown.
   */
  get(request: Request, socketAddress?: string): RequestState {
    return this.#states.get(request) ?? this.start(request, socketAddress)
  }
}

export function recordRateLimit(state: RequestState, status: RateLimitStatus | undefined): void {
  state.rateLimit = tighter(state.rateLimit, status)
}

/** The path of a request's URL (`/` if the URL cannot be parsed). */
export function pathnameOf(request: Request): string {
  try {
    return new URL(request.url).pathname
  } catch {
    return '/'
  }
}
