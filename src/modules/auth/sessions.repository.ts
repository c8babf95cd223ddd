import { sql, type Insertable, type Selectable } from 'kysely'
import type { Db, Timestamp } from '../../db.ts'

export interface SessionTable {
  id: string
  client_id: string
  tenant_id: string
  created_at: Timestamp
  expires_at: string
  revoked_at: string | null
  revoked_reason: string | null
}
export type SessionRow = Selectable<SessionTable>

export interface RefreshTokenTable {
  jti: string
  session_id: string
  client_id: string
  issued_at: Timestamp
  expires_at: string
  used_at: string | null
  revoked_at: string | null
}
export type RefreshTokenRow = Selectable<RefreshTokenTable>

const now = sql<string>`timezone('utc', now())`
const secondsAgo = (seconds: number) => sql<string>`timezone('utc', now()) - make_interval(secs => ${seconds})`

/** Opens a session with its first refresh token, in one statement. */
export async function insertSession(
  db: Db,
  session: Pick<Insertable<SessionTable>, 'id' | 'client_id' | 'tenant_id' | 'expires_at'>,
  refreshJti: string,
): Promise<void> {
  await db
    .with('session', (qb) => qb.insertInto('sessions').values(session).returning('id'))
    .insertInto('refresh_tokens')
    .values({ jti: refreshJti, session_id: session.id, client_id: session.client_id, expires_at: session.expires_at })
    .execute()
}

export interface Rotation {
  jti: string
  sessionId: string
  clientId: string
  nextJti: string
  /** Expiry of the next refresh token, and so of the session. */
  expiresAt: string
}

/**
 * Consumes a refresh token and issues its successor in ONE statement: the token must be unused,
 * unrevoked and unexpired, its session unrevoked and its client active. Row locking makes this
 * the arbiter between concurrent refreshes: of N presenting the same token exactly one gets a row
 * back, on any number of processes. Returns the client's current roles and scopes, or undefined.
 */
export async function rotateRefreshToken(db: Db, rotation: Rotation) {
  return db
    .with('consumed', (qb) =>
      qb
        .updateTable('refresh_tokens as rt')
        .from(['sessions as s', 'clients as c'])
        .set({ used_at: now })
        .whereRef('s.id', '=', 'rt.session_id')
        .whereRef('c.id', '=', 'rt.client_id')
        .where('rt.jti', '=', rotation.jti)
        .where('rt.session_id', '=', rotation.sessionId)
        .where('rt.client_id', '=', rotation.clientId)
        .where('rt.used_at', 'is', null)
        .where('rt.revoked_at', 'is', null)
        .where('rt.expires_at', '>', now)
        .where('s.revoked_at', 'is', null)
        .where('c.is_active', '=', true)
        .returning(['rt.session_id', 'rt.client_id', 'c.tenant_id', 'c.roles', 'c.scopes']),
    )
    .with('issued', (qb) =>
      qb
        .insertInto('refresh_tokens')
        .columns(['jti', 'session_id', 'client_id', 'expires_at'])
        .expression((eb) =>
          eb
            .selectFrom('consumed')
            .select([
              sql<string>`cast(${rotation.nextJti} as uuid)`.as('jti'),
              'consumed.session_id',
              'consumed.client_id',
              sql<string>`cast(${rotation.expiresAt} as timestamp(6))`.as('expires_at'),
            ]),
        )
        .returning('jti'),
    )
    .with('extended', (qb) =>
      qb
        .updateTable('sessions')
        .from('consumed')
        .set({ expires_at: rotation.expiresAt })
        .whereRef('sessions.id', '=', 'consumed.session_id')
        .returning('sessions.id'),
    )
    .selectFrom('consumed')
    .select(['consumed.session_id', 'consumed.tenant_id', 'consumed.roles', 'consumed.scopes'])
    .executeTakeFirst()
}

/**
 * Reuse detection (OAuth 2.0 Security BCP): when `jti` was used more than `windowSeconds` ago,
 * its session and every refresh token of it are revoked. Returns the revoked session's id.
 */
export async function revokeSessionOnReuse(db: Db, jti: string, windowSeconds: number): Promise<string | undefined> {
  const row = await db
    .with('revoked', (qb) =>
      qb
        .updateTable('sessions as s')
        .from('refresh_tokens as rt')
        .set({ revoked_at: now, revoked_reason: 'refresh_token_reuse' })
        .whereRef('s.id', '=', 'rt.session_id')
        .where('rt.jti', '=', jti)
        .where('rt.used_at', '<', secondsAgo(windowSeconds))
        .where('s.revoked_at', 'is', null)
        .returning('s.id'),
    )
    .with('tokens', (qb) =>
      qb
        .updateTable('refresh_tokens')
        .from('revoked')
        .set({ revoked_at: now })
        .whereRef('refresh_tokens.session_id', '=', 'revoked.id')
        .where('refresh_tokens.revoked_at', 'is', null)
        .returning('refresh_tokens.jti'),
    )
    .selectFrom('revoked')
    .select('revoked.id')
    .executeTakeFirst()
  return row?.id
}

/**
 * What every process must refuse without asking the database per request: sessions revoked within
 * the last `withinSeconds` (older revocations can have no live access token) and inactive clients.
 */
export async function listRevocations(db: Db, withinSeconds: number) {
  return db
    .selectFrom('sessions')
    .select([sql<'session' | 'client'>`'session'`.as('kind'), 'id'])
    .where('revoked_at', '>', secondsAgo(withinSeconds))
    .unionAll(
      db
        .selectFrom('clients')
        .select([sql<'session' | 'client'>`'client'`.as('kind'), 'id'])
        .where('is_active', '=', false),
    )
    .execute()
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function listRefreshTokens(db: Db, sessionId: string): Promise<RefreshTokenRow[]> {
  return db.selectFrom('refresh_tokens').selectAll().where('session_id', '=', sessionId).orderBy('issued_at').execute()
}
