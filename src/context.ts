import type { Logger } from 'pino'
import { AuthContext, TokenVerifier, type Principal } from './auth-context.ts'
import type { Config } from './config.ts'
import type { DatabaseHandle, Db } from './db.ts'
import type { RevocationCache } from './modules/auth/revocations.ts'
import type { SessionWrites } from './modules/auth/session-writes.ts'
import type { KeyStore } from './modules/auth/signing-keys.ts'
import type { OrderWrites } from './modules/exchange/order-writes.ts'
import type { OrderRow } from './modules/exchange/orders.repository.ts'
import type { SymbolsCache } from './modules/exchange/symbols-cache.ts'
import type { Metrics } from './metrics.ts'
import type { Page } from './page-rows.ts'
import type { RateLimits } from './rate-limits.ts'
import type { ReadCoalescer } from './read-coalescer.ts'
import { AppError } from './errors.ts'
import { recordRateLimit, type RequestState } from './request-state.ts'

/** Long-lived, process-wide dependencies, built once at start. */
export interface Services {
  config: Config
  database: DatabaseHandle
  db: Db
  keys: KeyStore
  revocations: RevocationCache
  verifier: TokenVerifier
  logger: Logger
  rateLimits: RateLimits
  metrics: Metrics
  symbolsCache: SymbolsCache
  sessionWrites: SessionWrites
  orderWrites: OrderWrites
  /** Identical concurrent order lists share one statement (see ReadCoalescer). */
  orderLists: ReadCoalescer<Page<OrderRow>>
}

/** What every operation receives, from either face. */
export interface RequestContext {
  requestId: string
  /** The caller's address (see `TRUST_PROXY`), for per-IP rate limits. */
  clientIp: string
  services: Services
  db: Db
  auth: AuthContext
  /** What the infrastructure records about this request (log line, response headers). */
  state: RequestState
}

export function createRequestContext(services: Services, state: RequestState, authorization: string | null | undefined): RequestContext {
  return {
    requestId: state.id,
    clientIp: state.clientIp,
    services,
    db: services.db,
    auth: new CountedAuthContext(authorization ?? null, services.verifier, {
      authenticated: async (principal, calls) => {
        state.clientId = principal.clientId
        recordRateLimit(state, await services.rateLimits.consumeApi(principal.clientId, calls))
      },
      refused: () => countAnonymousCall(services, state),
    }),
    state,
  }
}

/**
 * Counts a call made without a valid access token against its address's allowance, once per
 * request whichever face or step notices it first; throws 429 over the limit.
 */
export async function countAnonymousCall(services: Pick<Services, 'rateLimits'>, state: RequestState): Promise<void> {
  if (state.anonymousCounted) return
  state.anonymousCounted = true
  recordRateLimit(state, await services.rateLimits.consumeAnon(state.clientIp))
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
    verifier: TokenVerifier,
    private readonly counting: Counting,
  ) {
    super(header, verifier)
  }

  override countAs(calls: number): void {
    if (this.#counted) throw new Error('countAs must be called before the caller is authenticated')
    this.#calls = calls
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
