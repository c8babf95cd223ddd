import type { RequestState } from '../core/context.ts'
import type { RouteAccess } from '../http/router.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/** The rate limits' hooks into the REST handler (`RestHooks`), wired once by the app. */
export interface RestRateLimits {
  /** After the route is known, before its handler runs; throws 429 over a limit. */
  beforeHandler: (route: { access?: RouteAccess | undefined }, state: RequestState) => Promise<void>
  /** Once the answer's status is known, before it is written. Never throws a limit. */
  answered: (route: { access?: RouteAccess | undefined }, status: number, state: RequestState) => Promise<void>
}

/**
 * The REST face's part of the rate limits: the per-address half of the login limit, before the
 * attempt does any work. A route whose `access` is `login` (login, refresh) counts one attempt, and
 * a failed one (401) a second point. The API and anonymous limits are counted where the caller is
 * obtained (`countedAuthContext`), as on the GraphQL face; the per-client half of the login limit by
 * the login and refresh operations, which know the client.
 */
export function restRateLimits(services: { rateLimits: Pick<RateLimits, 'checkLogin' | 'penaliseLogin'> }): RestRateLimits {
  const { rateLimits } = services
  return {
    beforeHandler: async (route, state) => {
      if (route.access === 'login') recordRateLimit(state, await rateLimits.checkLogin({ ip: state.clientIp }))
    },
    answered: async (route, status, state) => {
      if (status === 401 && route.access === 'login') await rateLimits.penaliseLogin({ ip: state.clientIp })
    },
  }
}
