import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.ts'
import { runTs } from './helpers/process.ts'

describe('configuration', () => {
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
      logLevel: 'info',
      graphiql: true,
    })
  })

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a URL (postgres: or postgresql:)'],
    [{ ACCESS_TOKEN_TTL: '5' }, 'Invalid configuration: ACCESS_TOKEN_TTL must be an integer between 30 and 86400'],
    [{ KEY_ENCRYPTION_KEY: 'short' }, 'Invalid configuration: KEY_ENCRYPTION_KEY must be 32 random bytes in base64url (43 characters)'],
    [{ GRAPHIQL: 'maybe' }, 'Invalid configuration: GRAPHIQL must be true or false'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message))
  })

  it('stops the server at start with that one line', async () => {
    const result = await runTs('src/main.ts', [], { PORT: 'not-a-port' })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer between 0 and 65535\n')
  })
})
