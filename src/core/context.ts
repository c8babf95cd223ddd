import type { AuthContext } from './auth.ts'
import type { RequestState } from './request-state.ts'

/**
 * The process-wide services every operation reaches through `ctx.services`, built once at start.
 * `src/app/services.ts` declares them (it merges its `AppServices` into this interface) and builds
 * them: this layer names none of them, so no lower layer's import points up at the modules. A
 * lower layer that needs one takes it as a parameter of the narrow type it defines.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

/** What every operation receives, from either face. */
export interface RequestContext {
  requestId: string
  /** The caller's address (see `TRUST_PROXY`), for per-address rate limits. */
  clientIp: string
  services: Services
  auth: AuthContext
  /** What the infrastructure records about this request (log line, response headers). */
  state: RequestState
  /**
   * The connection of a response written by someone else (Yoga's): what a long-lived answer, a
   * subscription, watches to see its client leave or stop reading (docs/events.md).
   */
  response?: ResponseWatch
}

/** A response under way, as seen by what feeds it. */
export interface ResponseWatch {
  /** Bytes written but not yet taken by the socket. */
  readonly buffered: number
  /** Called once when the response is over: sent in full, or its connection gone. At once if it is. */
  onClose(listener: () => void): void
  /** Cuts the connection unless the response is sent in full within `graceMs`. */
  cutUnlessFinished(graceMs: number): void
}
