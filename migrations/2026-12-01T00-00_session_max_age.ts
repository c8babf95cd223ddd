import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Sessions get an absolute end: `p_session_max_age` seconds after they were opened, however often
 * they are refreshed. The rotation refuses a token of a session past that end and never extends a
 * session (or issues a token) beyond it; it answers the session's new expiry, so the caller can keep
 * the access token it signs within it too. Everything else is as in 2026-11-30 (same planner
 * settings and primary-key-only access).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop function rotate_refresh_tokens(uuid[], uuid[], uuid[], uuid[], text[], boolean[], uuid[], text[], timestamp(6)[])`.execute(db)
  await sql`
    create function rotate_refresh_tokens(
      p_jti uuid[], p_session_id uuid[], p_client_id uuid[], p_tenant_id uuid[], p_presented_sha256 text[],
      p_signature_checked boolean[], p_next_jti uuid[], p_next_sha256 text[], p_expires_at timestamp(6)[],
      p_session_max_age integer)
    returns table (next_jti uuid, session_id uuid, tenant_id uuid, roles text[], scopes text[], expires_at timestamp(6))
    language plpgsql
    set plan_cache_mode = force_generic_plan
    set enable_seqscan = off
    set enable_hashjoin = off
    set enable_mergejoin = off
    as $fn$
    begin
      return query
        with input as (
          select distinct on (i.jti) i.jti, i.session_id, i.client_id, i.tenant_id, i.presented_sha256,
            i.signature_checked, i.next_jti, i.next_sha256, i.expires_at
          from unnest(p_jti, p_session_id, p_client_id, p_tenant_id, p_presented_sha256, p_signature_checked,
            p_next_jti, p_next_sha256, p_expires_at)
            with ordinality as i(jti, session_id, client_id, tenant_id, presented_sha256, signature_checked,
              next_jti, next_sha256, expires_at, position)
          order by i.jti, i.position
        ), locked as (
          select t.jti from refresh_tokens t where t.jti = any(p_jti) order by t.jti for no key update
        ), consumed as (
          update refresh_tokens rt set used_at = timezone('utc', now())
          from input i
            join locked l on l.jti = i.jti
            cross join lateral (
              select s.tenant_id, s.revoked_at, s.created_at + make_interval(secs => p_session_max_age) as ends_at
              from sessions s where s.id = i.session_id offset 0
            ) s
            cross join lateral (select c.tenant_id, c.roles, c.scopes, c.is_active from clients c where c.id = i.client_id offset 0) c
          where rt.jti = i.jti
            and rt.session_id is not distinct from i.session_id and rt.client_id is not distinct from i.client_id
            and (rt.token_sha256 = i.presented_sha256 or (rt.token_sha256 is null and i.signature_checked))
            and s.tenant_id = i.tenant_id and s.revoked_at is null and c.is_active
            and s.ends_at > timezone('utc', now())
            and rt.used_at is null and rt.revoked_at is null and rt.expires_at > timezone('utc', now())
          returning i.next_jti, i.next_sha256, least(i.expires_at, s.ends_at) as expires_at, rt.session_id, rt.client_id,
            c.tenant_id, c.roles, c.scopes
        ), issued as (
          insert into refresh_tokens (jti, session_id, client_id, expires_at, token_sha256)
          select x.next_jti, x.session_id, x.client_id, x.expires_at, x.next_sha256 from consumed x
        ), extended as (
          update sessions set expires_at = x.expires_at from consumed x where sessions.id = x.session_id
        )
        select x.next_jti, x.session_id, x.tenant_id, x.roles, x.scopes, x.expires_at from consumed x;
    end
    $fn$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function rotate_refresh_tokens(uuid[], uuid[], uuid[], uuid[], text[], boolean[], uuid[], text[], timestamp(6)[], integer)`.execute(db)
  // The function as 2026-11-30 created it.
  await sql`
    create function rotate_refresh_tokens(
      p_jti uuid[], p_session_id uuid[], p_client_id uuid[], p_tenant_id uuid[], p_presented_sha256 text[],
      p_signature_checked boolean[], p_next_jti uuid[], p_next_sha256 text[], p_expires_at timestamp(6)[])
    returns table (next_jti uuid, session_id uuid, tenant_id uuid, roles text[], scopes text[])
    language plpgsql
    set plan_cache_mode = force_generic_plan
    set enable_seqscan = off
    set enable_hashjoin = off
    set enable_mergejoin = off
    as $fn$
    begin
      return query
        with input as (
          select distinct on (i.jti) i.jti, i.session_id, i.client_id, i.tenant_id, i.presented_sha256,
            i.signature_checked, i.next_jti, i.next_sha256, i.expires_at
          from unnest(p_jti, p_session_id, p_client_id, p_tenant_id, p_presented_sha256, p_signature_checked,
            p_next_jti, p_next_sha256, p_expires_at)
            with ordinality as i(jti, session_id, client_id, tenant_id, presented_sha256, signature_checked,
              next_jti, next_sha256, expires_at, position)
          order by i.jti, i.position
        ), locked as (
          select t.jti from refresh_tokens t where t.jti = any(p_jti) order by t.jti for no key update
        ), consumed as (
          update refresh_tokens rt set used_at = timezone('utc', now())
          from input i
            join locked l on l.jti = i.jti
            cross join lateral (select s.tenant_id, s.revoked_at from sessions s where s.id = i.session_id offset 0) s
            cross join lateral (select c.tenant_id, c.roles, c.scopes, c.is_active from clients c where c.id = i.client_id offset 0) c
          where rt.jti = i.jti
            and rt.session_id is not distinct from i.session_id and rt.client_id is not distinct from i.client_id
            and (rt.token_sha256 = i.presented_sha256 or (rt.token_sha256 is null and i.signature_checked))
            and s.tenant_id = i.tenant_id and s.revoked_at is null and c.is_active
            and rt.used_at is null and rt.revoked_at is null and rt.expires_at > timezone('utc', now())
          returning i.next_jti, i.next_sha256, i.expires_at, rt.session_id, rt.client_id, c.tenant_id, c.roles, c.scopes
        ), issued as (
          insert into refresh_tokens (jti, session_id, client_id, expires_at, token_sha256)
          select x.next_jti, x.session_id, x.client_id, x.expires_at, x.next_sha256 from consumed x
        ), extended as (
          update sessions set expires_at = x.expires_at from consumed x where sessions.id = x.session_id
        )
        select x.next_jti, x.session_id, x.tenant_id, x.roles, x.scopes from consumed x;
    end
    $fn$`.execute(db)
}
