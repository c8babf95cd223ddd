import { type Selectable, sql } from 'kysely'

import { type Db, executePrepared } from '../../../db/database.ts'
import type { RefreshTokenTable, SessionTable } from '../../../db/schema.ts'

export type SessionRow = Selectable<SessionTable>

export type RefreshTokenRow = Selectable<RefreshTokenTable>

const now = sql<string>`timezone('utc', now())`
const secondsAgo = (seconds: number) => sql<string>`timezone('utc', now()) - make_interval(secs => ${seconds})`

export interface NewSession {
  id: string
  client_id: string
  tenant_id: string
  /** Expiry of the session and of its first refresh token. */
  expires_at: string
  refresh_jti: string
  refresh_sha256: string
}

/**
 * Opens sessions, each with its first refresh token, in ONE statement (one commit) however many
 * there are: the statement text never changes, the rows travel as arrays. Prepared: it has one plan
 * whatever the tables hold (rows from arrays, no scan to choose), and planning it was ~85 µs of
 * PostgreSQL CPU per batch (docs/performance.md, "What bounds each scenario").
 */
export async function insertSessions(db: Db, sessions: readonly NewSession[]): Promise<void> {
  await executePrepared(
    db,
    'open_sessions',
    sql`
    with input as (
      select * from unnest(${sessions.map((s) => s.id)}::uuid[], ${sessions.map((s) => s.client_id)}::uuid[],
        ${sessions.map((s) => s.tenant_id)}::uuid[], ${sessions.map((s) => s.expires_at)}::timestamp(6)[],
        ${sessions.map((s) => s.refresh_jti)}::uuid[], ${sessions.map((s) => s.refresh_sha256)}::text[])
        as i(id, client_id, tenant_id, expires_at, refresh_jti, refresh_sha256)
    ), opened as (
      insert into sessions (id, client_id, tenant_id, expires_at)
      select id, client_id, tenant_id, expires_at from input
    )
    insert into refresh_tokens (jti, session_id, client_id, expires_at, token_sha256)
    select refresh_jti, id, client_id, expires_at, refresh_sha256 from input`,
  )
}

export interface Rotation {
  jti: string
  sessionId: string
  clientId: string
  tenantId: string
  /** SHA-256 of the presented token: it counts only if this is the digest stored when it was issued… */
  presentedSha256: string
  /** …or if its signature was checked and it was issued before digests were kept. */
  signatureChecked: boolean
  nextJti: string
  /** SHA-256 of the successor, signed before the statement runs. */
  nextSha256: string
  /** Expiry of the next refresh token, and so of the session (capped at the session's absolute end). */
  expiresAt: string
}

export interface Rotated {
  next_jti: string
  session_id: string
  tenant_id: string
  roles: string[]
  scopes: string[]
  /** The session's expiry after this rotation: the next refresh token's, or the session's absolute end when sooner. */
  expires_at: string
}

/**
 * Consumes refresh tokens and issues their successors in ONE statement, however many: each token
 * must be the one issued (its digest, or a checked signature for a token older than digests), unused,
 * unrevoked and unexpired, its session unrevoked and of the same tenant, its client active. Row
 * locking makes this the arbiter between concurrent refreshes: of N presenting the same token
 * exactly one gets a row back, on any number of processes, and within one call too — a token
 * listed twice is consumed for its first listing only. Tokens are locked in `jti` order before
 * any is changed, so two calls sharing tokens (listed in different orders) cannot deadlock.
 * Returns one row per rotation that won, identified by its `next_jti`.
 *
 * A session ends `sessionMaxAge` seconds after it opened however often it is refreshed: the
 * rotation refuses its tokens after that and never extends it beyond.
 *
 * The statement lives in the function `rotate_refresh_tokens` (migration 2026-12-01), so each
 * connection plans it once, not once per batch, and that one plan reaches every row through a
 * primary key whatever the tables' size or statistics when it was made.
 */
export async function rotateRefreshTokens(db: Db, rotations: readonly Rotation[], sessionMaxAge: number): Promise<Rotated[]> {
  const { rows } = await sql<Rotated>`
    select next_jti, session_id, tenant_id, roles, scopes, expires_at from rotate_refresh_tokens(
      ${rotations.map((r) => r.jti)}::uuid[], ${rotations.map((r) => r.sessionId)}::uuid[], ${rotations.map((r) => r.clientId)}::uuid[],
      ${rotations.map((r) => r.tenantId)}::uuid[], ${rotations.map((r) => r.presentedSha256)}::text[],
      ${rotations.map((r) => r.signatureChecked)}::boolean[], ${rotations.map((r) => r.nextJti)}::uuid[],
      ${rotations.map((r) => r.nextSha256)}::text[], ${rotations.map((r) => r.expiresAt)}::timestamp(6)[], ${sessionMaxAge}::integer)`.execute(db)
  return rows
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
 * Revokes every live session of a client (and so its refresh tokens, which the rotation refuses
 * for a revoked session). Returns the ids revoked.
 */
export async function revokeClientSessions(db: Db, clientId: string, reason: string): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
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
