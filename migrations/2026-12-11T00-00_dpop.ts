import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * DPoP (RFC 9449, docs/dpop.md): a client may be required to prove possession of a key at login,
 * refresh and every call. `dpop_proofs` remembers the proofs seen while they could still be
 * accepted (`expires_at`: their `iat` plus the clock skew window), so a replay is refused on every
 * instance: the primary key makes the second insert of a (key, jti) fail, whoever makes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table clients add column dpop_required boolean not null default false`.execute(db)
  await sql`
    create table dpop_proofs (
      jkt text not null,
      jti text not null,
      expires_at timestamp(6) not null,
      primary key (jkt, jti)
    )`.execute(db)
  await sql`create index dpop_proofs_expires_at on dpop_proofs (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table dpop_proofs`.execute(db)
  await sql`alter table clients drop column dpop_required`.execute(db)
}
