import type { Logger } from 'pino'
import { AuthContext, TokenVerifier } from './auth-context.ts'
import type { Config } from './config.ts'
import type { DatabaseHandle, Db } from './db.ts'
import type { RevocationCache } from './modules/auth/revocations.ts'
import type { KeyStore } from './modules/auth/signing-keys.ts'

/** Long-lived, process-wide dependencies, built once at start. */
export interface Services {
  config: Config
  database: DatabaseHandle
  db: Db
  keys: KeyStore
  revocations: RevocationCache
  verifier: TokenVerifier
  logger: Logger
}

/** What every operation receives, from either face. */
export interface RequestContext {
  requestId: string
  services: Services
  db: Db
  auth: AuthContext
  request: Request
}

export function createRequestContext(services: Services, request: Request, requestId: string): RequestContext {
  return {
    requestId,
    services,
    db: services.db,
    auth: new AuthContext(request.headers.get('authorization'), services.verifier),
    request,
  }
}
