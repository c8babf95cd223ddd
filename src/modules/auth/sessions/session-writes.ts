import { Batcher } from '../../../core/batcher.ts'
import type { Db } from '../../../db/database.ts'
import { type ClientCredentialsRow, findClientCredentials } from '../clients/clients.repository.ts'
import { insertSessions, type NewSession, type Rotated, rotateRefreshTokens, type Rotation } from './sessions.repository.ts'

const MAX_BATCH_SIZE = 200
const MAX_REMEMBERED_CLIENTS = 10_000

/** What an access token says of its client beyond the session: as the rotation statement reads it. */
export type ClientClaims = Pick<Rotated, 'tenant_id' | 'roles' | 'scopes'>

/** A statement that broke a constraint was rolled back whole: nothing of it was written. */
const wroteNothing = (error: unknown) => /^23/.test(String((error as { code?: unknown } | null)?.code ?? ''))

/**
 * The database work of login and refresh, batched: concurrent requests share one statement (one
 * round trip, one commit) per step. Every lookup runs after its request asked, so a client's
 * deactivation or new secret applies to the next login as before; every answer comes after the
 * statement carrying it committed.
 */
export class SessionWrites {
  readonly #clients: Batcher<string, ClientCredentialsRow | undefined>
  readonly #sessions: Batcher<NewSession, undefined>
  readonly #rotations: Batcher<Rotation, Rotated | undefined>
  readonly #lastClaims = new Map<string, ClientClaims>()

  constructor(db: Db, { maxConcurrentBatches, sessionMaxAge }: { maxConcurrentBatches: number; sessionMaxAge: number }) {
    const options = { maxBatchSize: MAX_BATCH_SIZE, maxConcurrentBatches, retryAlone: wroteNothing }
    this.#clients = new Batcher(async (ids) => {
      const rows = await findClientCredentials(db, [...new Set(ids)])
      const byId = new Map(rows.map((row) => [row.id, row]))
      // PostgreSQL reads a UUID in either case and answers in lower case.
      return ids.map((id) => byId.get(id.toLowerCase()))
    }, options)
    this.#sessions = new Batcher(async (sessions) => {
      await insertSessions(db, sessions)
      return sessions.map(() => undefined)
    }, options)
    this.#rotations = new Batcher(async (rotations) => {
      const rows = await rotateRefreshTokens(db, rotations, sessionMaxAge)
      const byNextJti = new Map(rows.map((row) => [row.next_jti, row]))
      if (this.#lastClaims.size > MAX_REMEMBERED_CLIENTS) this.#lastClaims.clear()
      return rotations.map((r) => {
        const row = byNextJti.get(r.nextJti)
        if (row) this.#lastClaims.set(r.clientId, { tenant_id: row.tenant_id, roles: row.roles, scopes: row.scopes })
        return row
      })
    }, options)
  }

  /** The client `id` (a UUID) as login needs it, or undefined when there is none. */
  findClient(id: string): Promise<ClientCredentialsRow | undefined> {
    return this.#clients.submit(id)
  }

  /** Opens a session with its first refresh token. */
  async openSession(session: NewSession): Promise<void> {
    await this.#sessions.submit(session)
  }

  /**
   * The client's tenant, roles and scopes as the last rotation of this process read them: only a
   * guess at what the next rotation will read (a refresh signs its access token with it while the
   * rotation runs, and signs again when the rotation's answer differs).
   */
  lastClaims(clientId: string): ClientClaims | undefined {
    return this.#lastClaims.get(clientId)
  }

  /** Consumes a refresh token and issues its successor (see `rotateRefreshTokens`); undefined when the token does not count. */
  rotate(rotation: Rotation): Promise<Rotated | undefined> {
    return this.#rotations.submit(rotation)
  }
}

/**
 * Batches in flight per step. Each is one pool connection, and the pool also serves everything
 * else: a third of it each for login's two steps and refresh's one (4 of the default 10; 2 measured
 * 6–10 % slower for login and refresh once signing left the event loop). The embedded database has
 * one connection: 2, so the next batch is ready when one ends.
 */
export function sessionWriteBatches(kind: 'postgres' | 'pglite', poolSize: number): number {
  return kind === 'pglite' ? 2 : Math.max(2, Math.ceil(poolSize / 3))
}
