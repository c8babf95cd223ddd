import { describe, expect, it } from 'vitest'

import { ConfigError, loadConfig } from './config.ts'

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: './.data',
      publicBaseUrl: 'http://localhost:4000',
      tokenAudience: 'http://localhost:4000',
      accessTokenTtl: 600,
      refreshTokenTtl: 604800,
      refreshReuseWindow: 10,
      clockSkew: 30,
      corsOrigins: [],
      rateLimitLoginPerMin: 20,
      rateLimitApiPerMin: 1200,
      rateLimitAnonPerMin: 600,
      sessionMaxAge: 2592000,
      logLevel: 'info',
      graphiql: true,
      docs: true,
      streamEndGraceSeconds: 5,
    })
  })

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a URL (postgres: or postgresql:)'],
    [{ ACCESS_TOKEN_TTL: '0' }, 'Invalid configuration: ACCESS_TOKEN_TTL must be an integer between 1 and 86400'],
    [{ ACCESS_TOKEN_TTL: '86401' }, 'Invalid configuration: ACCESS_TOKEN_TTL must be an integer between 1 and 86400'],
    [{ ACCESS_TOKEN_TTL: '600', REFRESH_TOKEN_TTL: '600' }, 'Invalid configuration: REFRESH_TOKEN_TTL must be longer than ACCESS_TOKEN_TTL (600)'],
    [{ SESSION_MAX_AGE: '0' }, 'Invalid configuration: SESSION_MAX_AGE must be an integer between 1 and 2147483647'],
    [{ RATE_LIMIT_ANON_PER_MIN: '0' }, 'Invalid configuration: RATE_LIMIT_ANON_PER_MIN must be an integer between 1 and 100000000'],
    [{ KEY_ENCRYPTION_KEY: 'short' }, 'Invalid configuration: KEY_ENCRYPTION_KEY must be 32 random bytes in base64url (43 characters)'],
    [{ GRAPHIQL: 'maybe' }, 'Invalid configuration: GRAPHIQL must be true or false'],
    [{ STREAM_END_GRACE_SECONDS: '0' }, 'Invalid configuration: STREAM_END_GRACE_SECONDS must be an integer between 1 and 60'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message))
  })

  it('takes the grace of an ended stream in seconds', () => {
    expect(loadConfig({ STREAM_END_GRACE_SECONDS: '1' }).streamEndGraceSeconds).toBe(1)
  })

  it('accepts lifetimes of seconds, so operators can watch tokens expire', () => {
    expect(loadConfig({ ACCESS_TOKEN_TTL: '1', REFRESH_TOKEN_TTL: '2', SESSION_MAX_AGE: '1' })).toMatchObject({
      accessTokenTtl: 1,
      refreshTokenTtl: 2,
      sessionMaxAge: 1,
    })
  })
})
