import { AuthContext, type DpopRequest, type HeaderVerifier, type Principal } from '../core/auth.ts'
import type { RequestState } from '../core/context.ts'
import { AppError } from '../core/errors.ts'
import { countAnonymousCall } from './anonymous-calls.ts'
import { type RateLimits, recordRateLimit } from './rate-limits.ts'

/**
 * The auth context of one request, counted: the caller's calls against its client's API limit
 * once it is verified, or one call against its address's anonymous limit when its token is missing
 * or bad (see `CountedAuthContext`). The request's state records the client and the tightest limit.
 */
export function countedAuthContext(
  services: { verifier: HeaderVerifier; rateLimits: Pick<RateLimits, 'consumeApi' | 'consumeAnon'> },
  state: RequestState,
  authorization: string | null | undefined,
  dpop?: DpopRequest,
): AuthContext {
  return new CountedAuthContext(authorization ?? null, services.verifier, dpop, {
    authenticated: async (principal, calls) => {
      state.clientId = principal.clientId
      recordRateLimit(state, await services.rateLimits.consumeApi(principal.clientId, calls))
    },
    refused: () => countAnonymousCall(services, state),
  })
}

interface Counting {
  /** A verified caller: `calls` calls against its client's API limit. */
  authenticated: (principal: Principal, calls: number) => Promise<void>
  /** No token, or one that failed verification: one call against the address's anonymous limit. */
  refused: () => Promise<void>
}

/**
 * Every request counts against a rate limit whichever face it came through, here, where both faces
 * obtain the caller: an authenticated one against its client's API limit (once, or once per root
 * mutation field, see `countAs`), one whose token is missing or bad against its address's
 * anonymous limit. Over the limit, `principal()` (and so every `require`) fails with 429 before
 * the operation does any work.
 */
class CountedAuthContext extends AuthContext {
  #counted: Promise<Principal> | undefined
  #calls = 1

  constructor(
    header: string | null,
    verifier: HeaderVerifier,
    dpop: DpopRequest | undefined,
    private readonly counting: Counting,
  ) {
    super(header, verifier, dpop)
  }

  override async countAs(calls: number): Promise<void> {
    const counted = this.#counted
    const more = calls - this.#calls
    this.#calls = Math.max(calls, this.#calls)
    // Already counted (a trusted-documents check asked for the caller first): count the rest now.
    if (counted && more > 0) await this.counting.authenticated(await counted, more)
  }

  override principal(): Promise<Principal> {
    this.#counted ??= super.principal().then(
      async (principal) => {
        await this.counting.authenticated(principal, this.#calls)
        return principal
      },
      async (error: unknown) => {
        if (error instanceof AppError && error.kind === 'unauthenticated') await this.counting.refused()
        throw error
      },
    )
    return this.#counted
  }
}
