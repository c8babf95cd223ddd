import type { TypedDocumentNode } from '@graphql-typed-document-node/core'
import { print } from 'graphql'

import { type AppOptions, createApp } from '../../src/app/server.ts'
import { closeServices, openServices, type OpenServicesOptions, type ReloadIntervals } from '../../src/app/services.ts'
import { type Config, loadConfig } from '../../src/core/config.ts'
import type { Services } from '../../src/core/context.ts'
import { listen, type RunningServer } from '../../src/http/listen.ts'
import { createLogger } from '../../src/observability/logger.ts'
import { registerContractChecks } from './contract.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'

export const TEST_BASE_URL = 'http://exchange.test'

/**
 * The reload interval of tests that wait for a change made elsewhere (a revocation, a key
 * rotation, a catalog change) to be picked up: short, so they wait little for it.
 */
export const SHORT_RELOAD_MS = 100

export interface TestServer {
  url: string
  services: Services
  config: Config
  database: TestDatabase
  running: RunningServer
  /** Stops the server and closes the database, keeping its data (for restart tests). */
  stop: () => Promise<void>
  /** Stops and removes the database. */
  close: () => Promise<void>
  request: (method: string, path: string, options?: RequestOptions) => Promise<TestResponse>
  graphql: <TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables> | string,
    variables?: TVariables,
    options?: { token?: string; headers?: Record<string, string> },
  ) => Promise<GraphQLTestResponse<TResult>>
}

export interface RequestOptions {
  body?: unknown
  /** Sent as is (for malformed-body tests); overrides `body`. */
  rawBody?: string | Uint8Array
  token?: string
  headers?: Record<string, string>
}

export interface TestResponse {
  status: number
  headers: Headers
  body: any
  text: string
}

export interface GraphQLTestResponse<T> {
  status: number
  headers: Headers
  data: T | null | undefined
  errors: { message: string; path?: (string | number)[]; extensions: Record<string, any> }[] | undefined
}

export interface TestServerOptions {
  /** Routes or schema other than the application's (infrastructure tests). */
  app?: AppOptions
  /** Where log lines go (with `LOG_LEVEL` set in `env`). */
  logDestination?: NodeJS.WritableStream
  /** Shorter background reloads, for tests that wait for a change made elsewhere to be picked up. */
  intervals?: Partial<ReloadIntervals>
  /** The webhook dispatcher's clock and retry schedule. */
  webhooks?: OpenServicesOptions['webhooks']
}

export async function startTestServer(env: Record<string, string> = {}, database?: TestDatabase, options: TestServerOptions = {}): Promise<TestServer> {
  const db = database ?? (await createTestDatabase())
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_BASE_URL: TEST_BASE_URL,
    // A suite logs in from one address far more than 20 times a minute; rate-limit tests set their own.
    RATE_LIMIT_LOGIN_PER_MIN: '1000000',
    RATE_LIMIT_API_PER_MIN: '100000000',
    RATE_LIMIT_ANON_PER_MIN: '100000000',
    ...db.env,
    ...env,
  })
  const services = await openServices(config, createLogger(config, options.logDestination), { intervals: options.intervals, webhooks: options.webhooks })
  const app = createApp(services, options.app)
  const running = await listen(app, 0, '127.0.0.1', { idleSeconds: config.connectionIdleSeconds, perAddress: config.maxConnectionsPerAddress })
  const url = running.url
  // Every REST response this server gives a test is checked against openapi.json (docs/contracts.md).
  const unregister = registerContractChecks(url, app.routes)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    unregister()
    // As the service's own shutdown does: open event streams end first (src/app/main.ts).
    services.events.close()
    await running.close()
    await closeServices(services)
  }
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | Uint8Array | undefined
    if (options.rawBody !== undefined) body = options.rawBody
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    const response = await fetch(`${url}${path}`, { method, headers, body: body as BodyInit | undefined })
    const text = await response.text()
    let parsed: unknown = undefined
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed, text }
  }
  const graphql: TestServer['graphql'] = async (document, variables, options = {}) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...options.headers,
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    const query = typeof document === 'string' ? document : print(document)
    const response = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) })
    const json = (await response.json()) as { data?: any; errors?: any }
    return { status: response.status, headers: response.headers, data: json.data, errors: json.errors }
  }
  return {
    url,
    services,
    config,
    database: db,
    running,
    stop,
    close: async () => {
      await stop()
      await db.drop()
    },
    request,
    graphql,
  }
}
