import type { Principal } from '../../../core/auth.ts'
import { ReloadLoop } from '../../../core/reload-loop.ts'
import type { Db } from '../../../db/database.ts'
import { listRevocations } from './sessions.repository.ts'

/** Every process sees a revocation made elsewhere within this time (docs/api.md, "Identity and tokens": within 5 s). */
export const REVOCATION_REFRESH_INTERVAL_MS = 2000
// A revocation recorded here survives reloads that may have read the database before it committed.
const LOCAL_ENTRY_KEEP_MS = 60_000
// Beyond the access lifetime and clock skew, so a token minted in the instant of revocation is covered.
const WINDOW_MARGIN_SECONDS = 60

type Kind = 'session' | 'client'

/**
 * Revoked sessions and inactive clients, held in memory so verifying an access token reads no
 * database row. Reloaded by one small query every couple of seconds; revocations made by this
 * process apply at once. Whoever holds a token past its first use (an event stream) asks again
 * on every change (`onChange`).
 */
export class RevocationCache {
  #sessions = new Set<string>()
  #clients = new Set<string>()
  #local = new Map<string, { kind: Kind; at: number }>()
  readonly #listeners = new Set<() => void>()
  readonly #alsoLoaded: (() => Promise<void>)[] = []
  readonly #reloads = new ReloadLoop(() => this.#load())
  readonly #windowSeconds: number

  constructor(
    private readonly db: Db,
    config: { accessTokenTtl: number; clockSkew: number },
  ) {
    this.#windowSeconds = config.accessTokenTtl + config.clockSkew + WINDOW_MARGIN_SECONDS
  }

  isRevoked(sessionId: string, clientId: string): boolean {
    return this.#sessions.has(sessionId) || this.#clients.has(clientId)
  }

  /** Whether a verified token of `principal` no longer counts: its session was revoked or its client deactivated. */
  revokes(principal: Pick<Principal, 'sessionId' | 'clientId'>): boolean {
    return this.isRevoked(principal.sessionId, principal.clientId)
  }

  /** Calls `listener` after every reload and every revocation made here; returns what removes it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * The one watch of a credential held past its first use (an SSE stream, a GraphQL WebSocket):
   * `end` is called once, with `expired` at the token's `exp` or `revoked` when its session is
   * revoked or its client deactivated; returns what stops watching.
   */
  watch(principal: Pick<Principal, 'sessionId' | 'clientId' | 'exp'>, end: (why: 'expired' | 'revoked') => void): () => void {
    let watching = true
    const stop = () => {
      watching = false
      clearTimeout(expiry)
      unlisten()
    }
    const finish = (why: 'expired' | 'revoked') => {
      if (!watching) return
      stop()
      end(why)
    }
    const expiry = setTimeout(() => finish('expired'), Math.max(0, principal.exp * 1000 - Date.now()))
    expiry.unref()
    const unlisten = this.onChange(() => {
      if (this.revokes(principal)) finish('revoked')
    })
    return stop
  }

  revokeSession(sessionId: string): void {
    this.#record('session', sessionId)
  }

  markClientInactive(clientId: string): void {
    this.#record('client', clientId)
  }

  /** Reloads `load` with every reload, before listeners hear of it: state that travels with the credentials (address allow-lists). */
  alsoLoad(load: () => Promise<void>): void {
    this.#alsoLoaded.push(load)
  }

  reload(): Promise<void> {
    return this.#reloads.run()
  }

  /** Reloads every `intervalMs` until `stop()`; a failed reload keeps the last state and is reported. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#reloads.start(intervalMs, onError)
  }

  /** Stops the periodic reload and waits for one in flight. */
  stop(): Promise<void> {
    return this.#reloads.stop()
  }

  #record(kind: Kind, id: string): void {
    this.#local.set(id, { kind, at: Date.now() })
    ;(kind === 'session' ? this.#sessions : this.#clients).add(id)
    this.#changed()
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener()
  }

  async #load(): Promise<void> {
    const [rows] = await Promise.all([listRevocations(this.db, this.#windowSeconds), ...this.#alsoLoaded.map((load) => load())])
    const sessions = new Set<string>()
    const clients = new Set<string>()
    for (const row of rows) (row.kind === 'session' ? sessions : clients).add(row.id)
    const cutoff = Date.now() - LOCAL_ENTRY_KEEP_MS
    for (const [id, entry] of this.#local) {
      if (entry.at < cutoff) this.#local.delete(id)
      else (entry.kind === 'session' ? sessions : clients).add(id)
    }
    this.#sessions = sessions
    this.#clients = clients
    this.#changed()
  }
}
