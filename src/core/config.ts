import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

import { z } from 'zod'

// About 68 years: any lifetime an operator means, and still a valid interval and Date everywhere.
const MAX_SECONDS = 2_147_483_647

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be an integer between ${min} and ${max}`).max(max, `must be an integer between ${min} and ${max}`))

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol)
      } catch {
        return false
      }
    },
    `must be a URL (${protocols.join(' or ')})`,
  )

// `false`/`true` or the number of proxies in front of the service (`true` is one).
const proxyHops = z
  .string()
  .regex(/^(true|false|yes|no|\d{1,2})$/, 'must be true, false or a number of proxy hops (0 to 10)')
  .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v)))
  .pipe(z.number().int().min(0, 'must be true, false or a number of proxy hops (0 to 10)').max(10, 'must be true, false or a number of proxy hops (0 to 10)'))

/** Whether the runtime knows the zone (an IANA name: `Asia/Tehran`, `UTC`, …). */
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const envSchema = z.object({
  PORT: integer(0, 65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  ACCESS_TOKEN_TTL: integer(1, 86_400).default(600),
  REFRESH_TOKEN_TTL: integer(2, MAX_SECONDS).default(604_800),
  SESSION_MAX_AGE: integer(1, MAX_SECONDS).default(30 * 86_400),
  REFRESH_REUSE_WINDOW: integer(0, 3600).default(10),
  TOKEN_AUDIENCE: z.string().min(1).optional(),
  CLOCK_SKEW: integer(0, 300).default(30),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  KEY_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 random bytes in base64url (43 characters)')
    .optional(),
  CORS_ORIGINS: z.string().default(''),
  RATE_LIMIT_LOGIN_PER_MIN: integer(1, 1_000_000).default(20),
  RATE_LIMIT_API_PER_MIN: integer(1, 100_000_000).default(1200),
  RATE_LIMIT_ANON_PER_MIN: integer(1, 100_000_000).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRAPHIQL: boolean.default(true),
  DOCS: boolean.default(true),
  GRAPHQL_INTROSPECTION: boolean.default(true),
  GRAPHQL_PERSISTED_DOCUMENTS: z.string().max(4096).optional(),
  GRAPHQL_TRUSTED_DOCUMENTS_ONLY: boolean.default(false),
  DB_POOL_SIZE: integer(1, 200).default(10),
  STATEMENT_TIMEOUT_MS: integer(100, 600_000).default(5000),
  TRUST_PROXY: proxyHops.default(0),
  MAX_STREAMS_PER_CLIENT: integer(1, 100_000).default(10),
  MAX_OPEN_ORDERS_PER_SYMBOL: integer(1, 1_000_000).default(1000),
  EVENT_RETENTION_DAYS: integer(1, 3650).default(7),
  EVENTS_PING_SECONDS: integer(1, 15).default(15),
  STREAM_END_GRACE_SECONDS: integer(1, 60).default(5),
  CONNECTION_IDLE_SECONDS: integer(1, 3600).default(5),
  MAX_CONNECTIONS_PER_ADDRESS: integer(1, 1_000_000).default(256),
  MARKET_TIMEZONE: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name, e.g. Asia/Tehran').default('Asia/Tehran'),
  WEBHOOK_ALLOW_HTTP: boolean.default(false),
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 visible ASCII characters')
    .optional(),
})

export type Config = {
  port: number
  host: string
  databaseUrl: string | undefined
  dataDir: string
  publicBaseUrl: string
  accessTokenTtl: number
  refreshTokenTtl: number
  /** Absolute lifetime of a session, however often it is refreshed. */
  sessionMaxAge: number
  refreshReuseWindow: number
  tokenAudience: string
  clockSkew: number
  redisUrl: string | undefined
  keyEncryptionKey: string | undefined
  corsOrigins: string[]
  rateLimitLoginPerMin: number
  rateLimitApiPerMin: number
  /** Calls per minute per address without a valid access token. */
  rateLimitAnonPerMin: number
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL']
  graphiql: boolean
  /** Serve the API reference page on `GET /docs`. */
  docs: boolean
  graphqlIntrospection: boolean
  /** The trusted documents served by `documentId` (`sha256:<hex>` → document text), from `GRAPHQL_PERSISTED_DOCUMENTS`. */
  graphqlPersistedDocuments: ReadonlyMap<string, string> | undefined
  /** Refuse GraphQL documents sent as text, except from admins (docs/api.md, "Trusted documents"). */
  graphqlTrustedDocumentsOnly: boolean
  dbPoolSize: number
  statementTimeoutMs: number
  /** Proxies in front of the service whose `X-Forwarded-For` entries are believed (0: none). */
  trustProxyHops: number
  metricsToken: string | undefined
  /** Event streams (SSE and GraphQL subscriptions) one client may hold open at once, per process. */
  maxStreamsPerClient: number
  /** Orders of one tenant resting in one symbol's book at once (docs/matching.md). */
  maxOpenOrdersPerSymbol: number
  /** Days events are kept; resuming from before that is 410 `events_expired`. */
  eventRetentionDays: number
  /** Seconds between `: ping` comments on an idle SSE stream. */
  eventsPingSeconds: number
  /** Seconds a stream the service ended waits for its client to take the last message before cutting the connection. */
  streamEndGraceSeconds: number
  /** Seconds a connection may stay open before its first request arrives. */
  connectionIdleSeconds: number
  /** Connections open at once from one remote address; more are closed as they come. */
  maxConnectionsPerAddress: number
  /** The market's time zone: market days (the reference price roll, `1d` candles) and candle alignment follow it. */
  marketTimezone: string
  /** Webhooks may be plain `http` URLs (docs/webhooks.md, "Safety"). */
  webhookAllowHttp: boolean
  /** Webhooks may reach loopback, private, link-local and metadata addresses (tests, local runs). */
  webhookAllowPrivate: boolean
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; the only place that looks at `process.env`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(present)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`)
  }
  const e = parsed.data
  if (e.REFRESH_TOKEN_TTL <= e.ACCESS_TOKEN_TTL) {
    throw new ConfigError(`Invalid configuration: REFRESH_TOKEN_TTL must be longer than ACCESS_TOKEN_TTL (${e.ACCESS_TOKEN_TTL})`)
  }
  if (e.GRAPHQL_TRUSTED_DOCUMENTS_ONLY && e.GRAPHQL_PERSISTED_DOCUMENTS === undefined) {
    throw new ConfigError('Invalid configuration: GRAPHQL_TRUSTED_DOCUMENTS_ONLY needs GRAPHQL_PERSISTED_DOCUMENTS (the documents clients may send)')
  }
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    publicBaseUrl,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    sessionMaxAge: e.SESSION_MAX_AGE,
    refreshReuseWindow: e.REFRESH_REUSE_WINDOW,
    tokenAudience: e.TOKEN_AUDIENCE ?? publicBaseUrl,
    clockSkew: e.CLOCK_SKEW,
    redisUrl: e.REDIS_URL,
    keyEncryptionKey: e.KEY_ENCRYPTION_KEY,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    rateLimitLoginPerMin: e.RATE_LIMIT_LOGIN_PER_MIN,
    rateLimitApiPerMin: e.RATE_LIMIT_API_PER_MIN,
    rateLimitAnonPerMin: e.RATE_LIMIT_ANON_PER_MIN,
    logLevel: e.LOG_LEVEL,
    graphiql: e.GRAPHIQL,
    docs: e.DOCS,
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION,
    graphqlPersistedDocuments: e.GRAPHQL_PERSISTED_DOCUMENTS === undefined ? undefined : loadPersistedDocuments(e.GRAPHQL_PERSISTED_DOCUMENTS),
    graphqlTrustedDocumentsOnly: e.GRAPHQL_TRUSTED_DOCUMENTS_ONLY,
    dbPoolSize: e.DB_POOL_SIZE,
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    trustProxyHops: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    maxStreamsPerClient: e.MAX_STREAMS_PER_CLIENT,
    maxOpenOrdersPerSymbol: e.MAX_OPEN_ORDERS_PER_SYMBOL,
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    eventsPingSeconds: e.EVENTS_PING_SECONDS,
    streamEndGraceSeconds: e.STREAM_END_GRACE_SECONDS,
    connectionIdleSeconds: e.CONNECTION_IDLE_SECONDS,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    marketTimezone: e.MARKET_TIMEZONE,
    webhookAllowHttp: e.WEBHOOK_ALLOW_HTTP,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  }
}

// A dashboard's manifest holds tens of documents; anything near this is not one.
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024
const DOCUMENT_ID = /^(?:sha256:)?([0-9a-f]{64})$/

/**
 * A persisted-documents manifest, as graphql-codegen's client preset writes it: a JSON object of
 * `sha256` hash (hex, optionally `sha256:`-prefixed) → document text. Each hash must be that of its
 * text, so a stale or hand-edited manifest fails the start instead of serving the wrong document.
 */
function loadPersistedDocuments(path: string): ReadonlyMap<string, string> {
  const fail = (why: string) => new ConfigError(`Invalid configuration: GRAPHQL_PERSISTED_DOCUMENTS ${why}`)
  let text: string
  try {
    const bytes = readFileSync(path)
    if (bytes.length > MAX_MANIFEST_BYTES) throw fail(`(${path}) is larger than ${MAX_MANIFEST_BYTES} bytes`)
    text = bytes.toString('utf8')
  } catch (error) {
    if (error instanceof ConfigError) throw error
    throw fail(`cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    throw fail(`(${path}) is not JSON`)
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) throw fail(`(${path}) must be a JSON object of document id → document text`)
  const documents = new Map<string, string>()
  for (const [id, document] of Object.entries(manifest)) {
    const hash = DOCUMENT_ID.exec(id)?.[1]
    if (hash === undefined) throw fail(`(${path}): "${id.slice(0, 80)}" is not a sha256 document id (64 lowercase hex digits, optionally after "sha256:")`)
    if (typeof document !== 'string' || document === '') throw fail(`(${path}): the document of ${id} must be non-empty text`)
    if (createHash('sha256').update(document).digest('hex') !== hash) throw fail(`(${path}): ${id} is not the sha256 of its document`)
    documents.set(`sha256:${hash}`, document)
  }
  return documents
}
