import type { RequestState } from '../core/context.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/**
 * Counts a call made without a valid access token against its address's allowance: `calls` in
 * all for the request, whichever face or step notices it first (a later step that knows the
 * request costs more counts only the difference); throws 429 over the limit. A refusal is
 * remembered, so every later step of the request is refused alike.
 */
export async function countAnonymousCall(services: { rateLimits: Pick<RateLimits, 'consumeAnon'> }, state: RequestState, calls = 1): Promise<void> {
  const refused = refusals.get(state)
  if (refused) throw refused
  const more = calls - state.anonymousCalls
  if (more <= 0) return
  state.anonymousCalls = calls
  try {
    recordRateLimit(state, await services.rateLimits.consumeAnon(state.clientIp, more))
  } catch (error) {
    refusals.set(state, error)
    throw error
  }
}

const refusals = new WeakMap<RequestState, unknown>()
