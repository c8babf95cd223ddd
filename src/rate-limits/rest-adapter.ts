import type { RequestState } from '../core/context.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/**
 * The per-address half of the login limit on the REST face, before the attempt does any work: a
 * login or refresh counts one attempt, and a failed one (401) a second point.
 */
export async function checkLoginAttempt(services: { rateLimits: Pick<RateLimits, 'checkLogin' | 'penaliseLogin'> }, state: RequestState): Promise<void> {
  recordRateLimit(state, await services.rateLimits.checkLogin({ ip: state.clientIp }))
}

export async function penaliseFailedLogin(services: { rateLimits: Pick<RateLimits, 'checkLogin' | 'penaliseLogin'> }, state: RequestState): Promise<void> {
  await services.rateLimits.penaliseLogin({ ip: state.clientIp })
}
