import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

import type { RequestState } from '../core/context.ts'
import { clientIp } from './client-ip.ts'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The caller's own `X-Request-Id` when it is sane, else a new one. */
export function requestIdFrom(incomingId: string | null | undefined): string {
  return incomingId && REQUEST_ID.test(incomingId) ? incomingId : randomUUID()
}

/**
 * A request's state from what arrived: an incoming `X-Request-Id` is kept when it is sane, so a
 * bank can trace a call end to end.
 */
export function openRequestState(
  incomingId: string | null | undefined,
  socketAddress: string | undefined,
  forwardedFor: string | null | undefined,
  trustProxyHops: number,
): RequestState {
  return {
    id: requestIdFrom(incomingId),
    startedAt: process.hrtime.bigint(),
    clientIp: clientIp(socketAddress, forwardedFor ?? null, trustProxyHops),
    clientId: undefined,
    rateLimit: undefined,
    operationName: undefined,
    carriesTokens: false,
    anonymousCalls: 0,
  }
}

export class RequestStates {
  #states = new WeakMap<Request, RequestState>()

  constructor(private readonly trustProxyHops: number) {}

  start(request: Request, socketAddress: string | undefined): RequestState {
    const state = openRequestState(request.headers.get('x-request-id'), socketAddress, request.headers.get('x-forwarded-for'), this.trustProxyHops)
    this.#states.set(request, state)
    return state
  }

  adopt(request: Request, state: RequestState): void {
    this.#states.set(request, state)
  }

  /**
   * The state of a request. One answered before `start` ran (CORS preflight, the GraphiQL page:
   * Yoga's own plugins come first) gets a fresh one, its latency unknown.
   */
  get(request: Request, socketAddress?: string): RequestState {
    return this.#states.get(request) ?? this.start(request, socketAddress)
  }
}

/** The path of a request's URL (`/` if the URL cannot be parsed). */
export function pathnameOf(request: Request): string {
  try {
    return new URL(request.url).pathname
  } catch {
    return '/'
  }
}

/** One request header as a string (Node joins repeated ones; `set-cookie` is never asked for). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}
