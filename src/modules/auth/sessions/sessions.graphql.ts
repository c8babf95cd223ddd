import { builder } from '../../../graphql/builder.ts'
import { ANSWERS_ANONYMOUS } from '../../../graphql/root-fields.ts'
import { loginSucceeded } from '../../audit/auth-audit.ts'
import type { AccessTokenClaims } from '../tokens/tokens.ts'
import { login, type LoginResult } from './login.ts'
import { markCarriesTokens } from './no-store.ts'
import { refresh, type RefreshResult } from './refresh.ts'
import type { TokenSet } from './session-tokens.ts'

const TOKEN_TYPE = '`DPoP` when the tokens are bound to a DPoP key (docs/dpop.md), else `Bearer`: how `Authorization` carries the access token.'

const TokenSetType = builder.objectRef<TokenSet>('TokenSet').implement({
  description: 'An access token (EdDSA-signed JWT) and the refresh token that renews it once.',
  fields: (t) => ({
    access: t.exposeString('access'),
    refresh: t.exposeString('refresh'),
  }),
})

const TokenClaimsType = builder.objectRef<AccessTokenClaims>('TokenClaims').implement({
  description: 'The claims of the access token.',
  fields: (t) => ({
    iss: t.exposeString('iss'),
    sub: t.exposeString('sub', { description: 'The client id.' }),
    aud: t.exposeString('aud'),
    iat: t.exposeInt('iat', { description: 'Issued at, Unix seconds.' }),
    exp: t.exposeInt('exp', { description: 'Expiry, Unix seconds.' }),
    jti: t.exposeString('jti'),
    tokenType: t.exposeString('token_type'),
    sessionId: t.exposeString('session_id'),
    tenantId: t.exposeString('tenant_id'),
    roles: t.exposeStringList('roles'),
    scopes: t.exposeStringList('scopes'),
    amr: t.exposeStringList('amr'),
    clientId: t.exposeString('client_id'),
    cnfJkt: t.string({
      nullable: true,
      description: 'The thumbprint of the DPoP key the token is bound to (`cnf.jkt`), if it is.',
      resolve: (c) => c.cnf?.jkt,
    }),
  }),
})

const LoginResultType = builder.objectRef<LoginResult>('LoginResult').implement({
  fields: (t) => ({
    claims: t.expose('claims', { type: TokenClaimsType }),
    tokens: t.expose('tokens', { type: TokenSetType }),
    expiresIn: t.exposeInt('expires_in', { description: 'Lifetime of the access token, seconds.' }),
    tokenType: t.string({ description: TOKEN_TYPE, resolve: (r) => r.token_type ?? 'Bearer' }),
  }),
})

const RefreshResultType = builder.objectRef<RefreshResult>('RefreshResult').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    tokens: t.expose('tokens', { type: TokenSetType }),
    expiresIn: t.exposeInt('expires_in', { description: 'Lifetime of the access token, seconds.' }),
    tokenType: t.string({ description: TOKEN_TYPE, resolve: (r) => r.token_type ?? 'Bearer' }),
  }),
})

builder.mutationField('login', (t) =>
  t.field({
    type: LoginResultType,
    description: 'Exchanges client credentials for the tokens of a new session.',
    extensions: ANSWERS_ANONYMOUS,
    args: {
      clientId: t.arg.string({ required: true }),
      clientSecret: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const result = await login(ctx.services, { client_id: args.clientId, client_secret: args.clientSecret }, ctx.clientIp, ctx.dpop)
      loginSucceeded(ctx, result.claims)
      markCarriesTokens(ctx.state)
      return result
    },
  }),
)

builder.mutationField('refresh', (t) =>
  t.field({
    type: RefreshResultType,
    description: 'Exchanges a refresh token (usable once) for new tokens in the same session.',
    extensions: ANSWERS_ANONYMOUS,
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const result = await refresh(ctx.services, { refresh_token: args.refreshToken }, ctx.clientIp, ctx.dpop)
      markCarriesTokens(ctx.state)
      return result
    },
  }),
)
