import { AppError, forbidden } from './errors.ts'

/** The caller, as proven by a verified access token. */
export interface Principal {
  clientId: string
  tenantId: string
  sessionId: string
  roles: string[]
  scopes: string[]
  jti: string
  exp: number
  /** RFC 7638 thumbprint of the key the token is bound to (`cnf.jkt`, DPoP): every use needs a proof by that key. */
  jkt?: string
}

/** The 401 messages of a missing or refused token, word for word as the API reference gives them. */
export const MESSAGES = {
  missing: 'No token provided',
  invalidFormat: 'JWT has an invalid format',
  expired: 'JWT has expired',
  badSignature: 'JWT signature is invalid',
  /** Beyond the reference: the token's session was revoked or its client deactivated. */
  revoked: 'JWT has been revoked',
} as const

/** What turns an `Authorization` header into a Principal, or throws the 401 it deserves. */
export interface HeaderVerifier {
  verifyHeader(header: string | null, dpop?: DpopRequest): Promise<Principal>
}

/**
 * What a DPoP proof is checked against (docs/dpop.md): the request's `DPoP` header, method and
 * target (path, or an absolute URL of which only the path counts). `proven` is the key thumbprint a
 * GraphQL WebSocket proved at its `connection_init`: its operations need no proof of their own.
 */
export interface DpopRequest {
  proof: string | null | undefined
  method: string
  url: string
  proven?: string
}

/** `<resource>:<action>`, where a granted `*` stands for either part (`orders:*`, `*:read`, `*:*`). */
export function scopeAllows(granted: string, required: string): boolean {
  const g = granted.split(':')
  const r = required.split(':')
  if (g.length !== 2 || r.length !== 2) return false
  const [gr, ga] = g as [string, string]
  const [rr, ra] = r as [string, string]
  return (gr === '*' || gr === rr) && (ga === '*' || ga === ra)
}

export function hasScope(principal: Principal, required: string): boolean {
  return principal.scopes.some((granted) => scopeAllows(granted, required))
}

export function isAdmin(principal: Principal): boolean {
  return principal.roles.includes('admin')
}

/** Per-request authentication: the header is verified at most once, whichever face asks. */
export class AuthContext {
  #principal: Promise<Principal> | undefined

  constructor(
    private readonly header: string | null,
    private readonly verifier: HeaderVerifier,
    private readonly dpop?: DpopRequest,
  ) {}

  principal(): Promise<Principal> {
    this.#principal ??= this.verifier.verifyHeader(this.header, this.dpop)
    return this.#principal
  }

  /**
   * The caller if its token verifies, undefined if it is missing or refused (401); counts nothing
   * (`principal()` does, in the counted context). Other failures (a database fault) are thrown.
   */
  async verified(): Promise<Principal | undefined> {
    try {
      return await AuthContext.prototype.principal.call(this)
    } catch (error) {
      if (error instanceof AppError && error.kind === 'unauthenticated') return undefined
      throw error
    }
  }

  /** Whether the request carries an `Authorization` header at all. */
  get hasCredentials(): boolean {
    return this.header !== null
  }

  /**
   * How many calls the request counts as against the API rate limit: set before `principal()`, or
   * after it to count the calls beyond those already counted.
   */
  countAs(_calls: number): Promise<void> {
    return Promise.resolve()
  }

  /** The verified caller, who must hold `scope` (403 "Access denied: requires <scope>" otherwise). */
  async require(scope?: string): Promise<Principal> {
    const principal = await this.principal()
    if (scope && !hasScope(principal, scope)) throw forbidden(`Access denied: requires ${scope}`)
    return principal
  }
}

/** A tenant-owned record is visible to its tenant and to admins; others get 403 (docs/api.md, "Conventions"). */
export function assertTenantAccess(principal: Principal, tenantId: string): void {
  if (tenantId !== principal.tenantId && !isAdmin(principal)) throw forbidden('Token belongs to different client')
}
