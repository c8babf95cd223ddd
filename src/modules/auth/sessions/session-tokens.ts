import type { KeyStore } from '../keys/signing-keys.ts'
import { signAccessToken, signRefreshToken, type TokenConfig, type TokenSubject } from '../tokens/tokens.ts'

/** The `tokens` object of login and refresh answers. */
export interface TokenSet {
  access: string
  refresh: string
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Unix seconds → the `timestamp(6)` text of a UTC instant, for `expires_at` columns. */
export function timestampAt(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
}

/** An access token and the refresh token `refreshJti` for one session, issued at `now`. */
export async function signTokenPair(keys: KeyStore, config: TokenConfig, subject: TokenSubject, refreshJti: string, now: number) {
  const [access, refresh] = await Promise.all([signAccessToken(keys, config, subject, now), signRefreshToken(keys, config, subject, refreshJti, now)])
  return { claims: access.claims, tokens: { access: access.token, refresh: refresh.token } satisfies TokenSet, refreshExpiresAt: refresh.claims.exp }
}
