import type { RequestState } from '../core/context.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/**
 * Counts a call made without a valid access token against its address's allowance, once per
 * request whichever face or step notices it first; throws 429 over the limit.
 */
export async function countAnonymousCall(services: { rateLimits: Pick<RateLimits, 'consumeAnon'> }, state: RequestState): Promise<void> {
  if (state.anonymousCounted) return
  state.anonymousCounted = true
  recordRateLimit(state, await services.rateLimits.consumeAnon(state.clientIp))
}
