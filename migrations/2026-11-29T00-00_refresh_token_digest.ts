import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * The SHA-256 (hex) of each refresh token as issued. A presented token whose digest is stored is
 * byte for byte one this service signed, so refresh needs no signature check (an Ed25519
 * verification was the largest cost of a refresh), and a copy of the table holds nothing a token
 * can be rebuilt from. Tokens issued before this migration have none and are still checked by
 * their signature.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table refresh_tokens add column token_sha256 text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table refresh_tokens drop column token_sha256`.execute(db)
}
