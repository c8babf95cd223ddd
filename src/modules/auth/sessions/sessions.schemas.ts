import { z } from 'zod'

import { MESSAGES } from '../../../core/auth.ts'
import { uuidText } from '../../../core/response-schemas.ts'
import { errorCode } from '../../../http/api-contract.ts'

/** Longer than any client id or secret issued (36 and 43 characters); longer text is refused unread. */
const MAX_CREDENTIAL_LENGTH = 256

/** The body of a login. Unknown fields are ignored. */
export const loginInput = z
  .object({
    client_id: z.string().max(MAX_CREDENTIAL_LENGTH, { abort: true }).meta({ description: 'Issued by the exchange center (a UUID).' }),
    client_secret: z.string().max(MAX_CREDENTIAL_LENGTH, { abort: true }).meta({ description: 'Issued with the client id; shown once.' }),
  })
  .meta({ id: 'LoginRequest', example: { client_id: '<CLIENT_ID>', client_secret: '<CLIENT_SECRET>' } })

/** The body of a refresh. Unknown fields are ignored. */
export const refreshInput = z
  .object({ refresh_token: z.string().meta({ description: 'The `tokens.refresh` of the last login or refresh; usable once.' }) })
  .meta({ id: 'RefreshRequest', example: { refresh_token: '<REFRESH_TOKEN>' } })

const jwt = z.string().meta({ description: 'A compact JWS (three base64url parts).', example: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ij…' })

export const tokenSet = z
  .object({
    access: jwt.meta({ description: 'The access token (Ed25519-signed JWT, `typ` `at+jwt`), sent as `Authorization: Bearer <access>`.' }),
    refresh: jwt.meta({ description: 'The refresh token: opaque to clients, usable once at the refresh endpoint.' }),
  })
  .meta({ id: 'TokenSet' })

const expiresIn = z.int().min(0).meta({ description: 'Seconds until the access token expires (`ACCESS_TOKEN_TTL`, 600 by default).', example: 600 })

/** The login answer: the access token's claims at the top level (reference 2.2), then `tokens` and `expires_in`. */
export const loginResponse = z
  .object({
    iss: z.string().meta({ description: 'Issuer: the base address of the service.', example: 'https://exchange.example' }),
    sub: uuidText.meta({ description: 'The client id.' }),
    aud: z.string().meta({ description: 'Audience (`TOKEN_AUDIENCE`, by default the issuer).' }),
    iat: z.int().meta({ description: 'Issued at, Unix seconds.', example: 1764106200 }),
    exp: z.int().meta({ description: 'Expiry, Unix seconds.', example: 1764106800 }),
    jti: uuidText.meta({ description: 'Unique token id.' }),
    token_type: z.enum(['access', 'DPoP']).meta({ description: '`DPoP` when the tokens are bound to a DPoP key (docs/dpop.md), else the claim `access`.' }),
    session_id: uuidText,
    tenant_id: uuidText,
    roles: z.array(z.string()).meta({ example: ['client'] }),
    scopes: z.array(z.string()).meta({ example: ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write'] }),
    amr: z.array(z.string()).meta({ example: ['client_secret'] }),
    client_id: uuidText.meta({ description: 'Equals `sub` (RFC 9068).' }),
    cnf: z
      .object({ jkt: z.string() })
      .optional()
      .meta({ description: 'The DPoP key the tokens are bound to, by RFC 7638 thumbprint (docs/dpop.md): only for clients that require DPoP.' }),
    tokens: tokenSet,
    expires_in: expiresIn,
  })
  .meta({ id: 'LoginResponse' })

export const refreshResponse = z
  .object({
    status: z.literal('refreshed'),
    tokens: tokenSet,
    expires_in: expiresIn,
    token_type: z.literal('DPoP').optional().meta({ description: 'Present when the tokens are bound to a DPoP key (docs/dpop.md).' }),
  })
  .meta({ id: 'RefreshResponse' })

/** Every refresh failure is this one 401 (docs/api.md, "Identity and tokens"). */
export const refreshFailureBody = z
  .object({ message: z.literal(MESSAGES.invalidFormat), error: errorCode('unauthenticated'), detail: z.literal(MESSAGES.invalidFormat) })
  .meta({ id: 'RefreshFailure', example: { message: MESSAGES.invalidFormat, error: 'Unauthorized', detail: MESSAGES.invalidFormat } })
