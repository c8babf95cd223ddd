/**
 * npm run bench — drives the service and a raw node:http baseline with autocannon in one run and
 * prints req/s, p50, p99, errors and the ratio to the baseline; writes bench/results.json.
 *
 * DATABASE_URL set → a throwaway database on that PostgreSQL server (dropped afterwards);
 * otherwise the embedded database in a temporary DATA_DIR.
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (comma-separated scenario names; `events` is the event streams scenario, bench/events.ts;
 * `instances` the one-against-two instances scenario, bench/instances.ts, PostgreSQL only;
 * BENCH_PAIRS its alternating pairs per book, default 2; BENCH_CPU_PROF a directory the service
 * writes a `--cpu-prof` profile to).
 *
 * The baseline is measured right before EACH scenario and the ratio taken to that measurement: on
 * a shared machine the yardstick drifts by 2x within a minute, and a ratio to a measurement made
 * minutes earlier would report the drift, not the service. Scenarios with a second yardstick (plain
 * graphql-yoga + jose, bench/plain-yoga.ts, or the REST orders list) have it measured right before
 * them too, with its CPU time per request.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import autocannon from 'autocannon'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import pg from 'pg'

import { cpuMs, type Credentials, databaseCpuMs, type EventsResult, formatEvents, measureEvents } from './events.ts'
import { formatInstances, type InstancesRun, measureInstances, seedDeepBook } from './instances.ts'
import { MARKET_DATA_SYMBOL, MARKET_DATA_TRADES, seedTrades } from './market-data.ts'
import { formatStatements, measureStatements, seedStatementEntries, type StatementResult } from './statements.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// `node --import tsx`: one process per child, so stopping it stops the service itself.
const TSX = [process.execPath, '--import', 'tsx']
const env = process.env
const DURATION = Number(env.BENCH_DURATION ?? 10)
const WARMUP = Number(env.BENCH_WARMUP ?? 3)
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50)
const ONLY = env.BENCH_ONLY?.split(',').map((s) => s.trim())
const EVENTS = !ONLY || ONLY.some((o) => 'events'.startsWith(o) || o.startsWith('events'))
// Two instances share a database only on PostgreSQL (the embedded database is one process's).
const INSTANCES = Boolean(env.DATABASE_URL) && (!ONLY || ONLY.some((o) => 'instances'.startsWith(o) || o.startsWith('instances')))
// 1,000,000 trades are seeded by SQL on PostgreSQL only (`market data: …` scenarios).
const MARKET_DATA = Boolean(env.DATABASE_URL) && (!ONLY || ONLY.some((o) => 'market data'.startsWith(o) || o.startsWith('market data')))
// 1,000,000 ledger entries of one account are seeded by SQL on PostgreSQL only (bench/statements.ts).
const STATEMENTS = Boolean(env.DATABASE_URL) && (!ONLY || ONLY.some((o) => 'statements'.startsWith(o) || o.startsWith('statements')))
// The service's public address: DPoP proofs name it (`htu`), whatever address it listens on.
const PUBLIC_BASE_URL = 'http://bench.test'
// Tenants of the events scenario, each holding MAX_STREAMS_PER_CLIENT's default of streams.
const EVENT_CLIENTS = 100

interface Child {
  url: string
  process: ChildProcess
  stop: () => Promise<void>
}

/**
 * Starts `script` with its stdout and stderr going to `logFile`, not to a pipe: this process runs
 * autocannon, and draining a service's log lines here took CPU from the load generator.
 */
function startChild(script: string, args: string[], childEnv: NodeJS.ProcessEnv, logFile: string, nodeArgs: string[] = []): Promise<Child> {
  return new Promise((resolve, reject) => {
    const fd = openSync(logFile, 'a')
    // Compiled JavaScript runs on node itself, as `npm start` runs it; TypeScript through tsx.
    const command = script.endsWith('.js') ? [process.execPath, ...nodeArgs, script] : [...TSX, ...nodeArgs, script]
    const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', fd, fd] })
    closeSync(fd)
    const poll = setInterval(() => {
      const output = readFileSync(logFile, 'utf8')
      const m = /"url":"(http:\/\/[^"]+)"/.exec(output)
      if (!m) return
      clearInterval(poll)
      resolve({
        url: m[1]!,
        process: child,
        stop: () =>
          new Promise((r) => {
            if (child.exitCode !== null) return r()
            child.once('exit', () => r())
            child.kill('SIGTERM')
          }),
      })
    }, 50)
    child.once('exit', (code) => {
      clearInterval(poll)
      reject(new Error(`${script} exited with ${code}:\n${readFileSync(logFile, 'utf8').slice(-4000)}`))
    })
  })
}

function run(args: string[], childEnv: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX[0]!, [...TSX.slice(1), ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} failed: ${err}`))))
  })
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, init)
  const text = await res.text()
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

interface Scenario {
  name: string
  options: (url: string) => Partial<autocannon.Options>
  /** The issue's goal: a ratio to the baseline, or req/s; and p99 ≤ 25 ms, 0 errors for all. */
  goal?: { ratio: number } | { requestsPerSec: number }
  /** A p99 goal stricter than P99_GOAL_MS. */
  p99?: number
  /** Run only when this holds (a scenario needing seeded data). */
  enabled?: boolean
  /** A second yardstick measured right before the scenario, and the ratio to it this scenario must reach. */
  compare?: { yardstick: Yardstick; goal?: number }
}

/** What a scenario is compared with besides the baseline: another server, or the service on another path. */
interface Yardstick {
  name: string
  scenario: Scenario
  url: () => string
  cpu?: CpuMeter
}

const P99_GOAL_MS = 25

interface Result {
  scenario: string
  requestsPerSec: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  total: number
  baselineRequestsPerSec?: number
  ratio?: number
  goal?: string
  goalMet?: boolean
  /** CPU time per answered request, in µs: the service's process, and the database's backends serving it (PostgreSQL). */
  serviceCpuUs?: number
  databaseCpuUs?: number
  /** The bench's own CPU per request (autocannon, this process): the load generator shares the host's cores. */
  loadCpuUs?: number
  /** The second yardstick (`compare`), measured right before the scenario. */
  yardstick?: { name: string; requestsPerSec: number; p99: number; cpuUs?: number; loadCpuUs?: number; ratio: number; goal: string; goalMet: boolean }
}

/** CPU time (ms) spent so far by the measured processes. */
interface CpuMeter {
  service: () => number
  database: () => Promise<number>
}

async function measure(scenario: Scenario, url: string, cpu?: CpuMeter): Promise<Result> {
  const base: autocannon.Options = { url, connections: CONNECTIONS, pipelining: 1 }
  await autocannon({ ...base, ...scenario.options(url), duration: WARMUP })
  const before = cpu && { service: cpu.service(), database: await cpu.database() }
  const load = process.cpuUsage()
  const r = await autocannon({ ...base, ...scenario.options(url), duration: DURATION })
  const loadUs = process.cpuUsage(load)
  // CPU per request holds on a shared host where req/s does not: other load takes turns, not work.
  const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, r.requests.total))
  const spent = cpu && before && { service: perRequest(cpu.service() - before.service), database: perRequest((await cpu.database()) - before.database) }
  return {
    ...(spent ? { serviceCpuUs: spent.service, databaseCpuUs: spent.database } : {}),
    loadCpuUs: Math.round((loadUs.user + loadUs.system) / Math.max(1, r.requests.total)),
    scenario: scenario.name,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx + (r.mismatches ?? 0),
    non2xx: r.non2xx,
    total: r.requests.total,
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-bench-'))
  // Kept after a run that failed or counted errors, for reading what the service logged.
  const logDir = mkdtempSync(path.join(tmpdir(), 'exchange-bench-logs-'))
  let errors = 0
  let completed = false
  const serviceEnv: NodeJS.ProcessEnv = {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    // As deployed: graphql-js skips its development-only checks (its instanceOf was ~5 % of a GraphQL request).
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL,
    // The limits would otherwise be what is measured.
    RATE_LIMIT_LOGIN_PER_MIN: '1000000',
    RATE_LIMIT_API_PER_MIN: '100000000',
    // Crossing loads leave thousands of one tenant's orders resting on a symbol.
    MAX_OPEN_ORDERS_PER_SYMBOL: '1000000',
    // Every client of the bench is 127.0.0.1, and the events scenario alone holds 1000 streams.
    MAX_CONNECTIONS_PER_ADDRESS: '100000',
  }
  let dropDatabase: (() => Promise<void>) | undefined
  if (env.DATABASE_URL) {
    const name = `exchange_bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: env.DATABASE_URL })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(env.DATABASE_URL)
    url.pathname = `/${name}`
    serviceEnv.DATABASE_URL = url.toString()
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: env.DATABASE_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    }
  } else {
    delete serviceEnv.DATABASE_URL
  }
  // Before the service starts, so the embedded database is free for the CLI too. The second bank
  // is the other side of the matching scenario.
  await run(['src/app/cli.ts', 'db', 'seed'], serviceEnv)
  const credentials: { client_id: string; client_secret: string; tenant_id: string } = JSON.parse(
    await run(['src/app/cli.ts', 'client', 'create', '--name', 'Bench Bank'], serviceEnv),
  )
  const counterparty: { client_id: string; client_secret: string; tenant_id: string } = JSON.parse(
    await run(['src/app/cli.ts', 'client', 'create', '--name', 'Bench Counterparty'], serviceEnv),
  )
  // The DPoP scenario's bank: every call of it carries a fresh proof (docs/dpop.md).
  const dpopCredentials: { client_id: string; client_secret: string } = JSON.parse(
    await run(['src/app/cli.ts', 'client', 'create', '--name', 'Bench DPoP Bank', '--dpop', 'required'], serviceEnv),
  )
  // Every order the bench places is paid for (docs/accounts.md).
  await run(['bench/fund.ts', credentials.tenant_id, counterparty.tenant_id], serviceEnv)
  if (INSTANCES) await seedDeepBook(serviceEnv.DATABASE_URL!, counterparty)
  if (MARKET_DATA) {
    const started = Date.now()
    await seedTrades(serviceEnv.DATABASE_URL!, counterparty)
    process.stderr.write(`seeded ${MARKET_DATA_TRADES} trades on ${MARKET_DATA_SYMBOL} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  }
  if (STATEMENTS) await seedStatementEntries(serviceEnv.DATABASE_URL!, credentials.tenant_id)
  const eventClients: Credentials[] = EVENTS ? JSON.parse(await run(['bench/events-clients.ts', String(EVENT_CLIENTS)], serviceEnv)) : []

  // As `npm start` runs it: the compiled service (`npm run bench` builds first).
  // BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops (docs/performance.md, Method).
  const profile = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(env.BENCH_CPU_PROF)}`] : []
  const service = await startChild('dist/src/app/main.js', [], serviceEnv, path.join(logDir, 'service.log'), profile)
  let baseline: Child | undefined
  let plainYoga: Child | undefined
  const cpu: CpuMeter = { service: () => cpuMs(service.process.pid!), database: () => databaseCpuMs(serviceEnv.DATABASE_URL) }
  try {
    const loginBody = JSON.stringify({ client_id: credentials.client_id, client_secret: credentials.client_secret })
    const login = () => json(`${service.url}/api/sso/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody })
    const token: string = (await login()).tokens.access
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    // Proofs are signed here synchronously (autocannon's setupRequest cannot wait): the load
    // generator's cost, not the service's.
    const dpopKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const dpopHeader = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: dpopKey.publicKey.export({ format: 'jwk' }) })).toString('base64url')
    const dpopProof = (htm: string, path: string, claims: Record<string, unknown> = {}) => {
      const payload = { jti: randomUUID(), htm, htu: `${PUBLIC_BASE_URL}${path}`, iat: Math.floor(Date.now() / 1000), ...claims }
      const input = `${dpopHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
      return `${input}.${sign('sha256', Buffer.from(input), { key: dpopKey.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
    }
    const dpopToken: string = (
      await json(`${service.url}/api/sso/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', dpop: dpopProof('POST', '/api/sso/v1/auth/login') },
        body: JSON.stringify({ client_id: dpopCredentials.client_id, client_secret: dpopCredentials.client_secret }),
      })
    ).tokens.access
    const dpopAth = createHash('sha256').update(dpopToken).digest('base64url')
    const dpopAuth = { authorization: `DPoP ${dpopToken}`, 'content-type': 'application/json' }
    const otherLogin = await json(`${service.url}/api/sso/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: counterparty.client_id, client_secret: counterparty.client_secret }),
    })
    const otherAuth = { authorization: `Bearer ${otherLogin.tokens.access as string}`, 'content-type': 'application/json' }
    // One bank buys, the other sells, at one price and quantity: every order trades, as taker or later as maker.
    const crossing = (side: 'buy' | 'sell') => JSON.stringify({ symbol: 'ETH-USDT', side, type: 'limit', quantity: '0.01', price: '3000.00' })

    const symbolsBytes = Buffer.from(await (await fetch(`${service.url}/api/exchange/v1/symbols`, { headers: auth })).arrayBuffer())
    baseline = await startChild('bench/baseline.ts', [], { ...env, BASELINE_BODY_B64: symbolsBytes.toString('base64') }, path.join(logDir, 'baseline.log'))

    // Every field of the REST symbol record, in GraphQL spelling: a field missing from what answer
    // reuse may serve once took this from 0.93× the baseline to 0.20× unnoticed (docs/performance.md).
    const graphqlQuery = JSON.stringify({
      query: `{ symbols(limit: 100) { total offset limit items { uid createdAt updatedAt isDeleted metaData userId symbol pricePrecision quantityPrecision minOrderQuantity tickSize dailyFluctuationPriceLimitPercent makerFeePercent takerFeePercent description isActive properties { symbol precision icon isCrypto color unitValueIrr name { fa en } } } } }`,
    })
    const symbolFields = `uid createdAt updatedAt isDeleted metaData userId symbol pricePrecision quantityPrecision minOrderQuantity tickSize dailyFluctuationPriceLimitPercent makerFeePercent takerFeePercent description isActive properties { symbol precision icon isCrypto color unitValueIrr name { fa en } }`
    // Variables that change per request: 1,000 (limit, offset) pairs in turn, more than any cache of
    // answers holds (256 entries), so each request is executed.
    let variation = 0
    const varyingSymbols = `query Symbols($limit: Int, $offset: Int) { symbols(limit: $limit, offset: $offset) { total offset limit items { ${symbolFields} } } }`
    const varyingBody = () => {
      const n = variation++ % 1000
      return JSON.stringify({ query: varyingSymbols, operationName: 'Symbols', variables: { limit: 1 + (n % 100), offset: Math.floor(n / 100) } })
    }
    // A document never sent before in each request: the root field's alias is new each time.
    let documents = 0
    const firstSeenBody = () => JSON.stringify({ query: `{ s${documents++}: symbols(limit: 100) { total offset limit items { ${symbolFields} } } }` })
    // A document of a new form in each request (a fragment named anew): nothing known applies.
    const newFormQuery = (n: number) => `{ ...F${n} } fragment F${n} on Query { symbols(limit: 100) { total offset limit items { ${symbolFields} } } }`
    const newFormBody = () => JSON.stringify({ query: newFormQuery(documents++) })
    // The REST orders list's fields, in GraphQL spelling.
    const graphqlOrders = JSON.stringify({
      query: `{ orders(limit: 100) { total offset limit items { uid createdAt updatedAt isDeleted metaData userId tenantId clientOrderId symbol side type quantity price status filledQuantity averagePrice cancelReason } } }`,
    })

    // The second yardstick: plain Yoga + jose on the same symbols, its own EdDSA key and token.
    const plainKeys = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
    const plainToken = await new SignJWT({ scope: 'symbols:read' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
      .setSubject(credentials.client_id)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(plainKeys.privateKey)
    plainYoga = await startChild(
      'bench/plain-yoga.ts',
      [],
      {
        ...env,
        NODE_ENV: 'production',
        PLAIN_YOGA_SYMBOLS_B64: symbolsBytes.toString('base64'),
        PLAIN_YOGA_JWK: JSON.stringify(await exportJWK(plainKeys.publicKey)),
      },
      path.join(logDir, 'plain-yoga.log'),
    )
    const plainYogaProcess = plainYoga.process
    const plainYogaUrl = plainYoga.url
    const plainYogaStick: Yardstick = {
      name: 'plain Yoga + jose (one repeated document)',
      url: () => plainYogaUrl,
      cpu: { service: () => cpuMs(plainYogaProcess.pid!), database: async () => 0 },
      scenario: {
        name: 'plain Yoga + jose',
        options: (url) => ({
          url: `${url}/graphql`,
          method: 'POST',
          headers: { authorization: `Bearer ${plainToken}`, 'content-type': 'application/json' },
          body: graphqlQuery,
        }),
      },
    }
    // The same yardstick given what the scenario gets: a document it has never seen in each request,
    // so it too parses and validates every one (Yoga's caches are keyed by the query text).
    let plainDocuments = 0
    const plainFirstSeenBody = () => JSON.stringify({ query: `{ s${plainDocuments++}: symbols(limit: 100) { total offset limit items { ${symbolFields} } } }` })
    const plainYogaStickOf = (what: string, body: () => string): Yardstick => ({
      name: `plain Yoga + jose (${what})`,
      url: () => plainYogaUrl,
      cpu: plainYogaStick.cpu,
      scenario: {
        name: `plain Yoga + jose, ${what}`,
        options: () => ({
          requests: [
            {
              method: 'POST',
              path: '/graphql',
              headers: { authorization: `Bearer ${plainToken}`, 'content-type': 'application/json' },
              setupRequest: (req: any) => ({ ...req, body: body() }),
            },
          ],
        }),
      },
    })
    const plainYogaFirstSeenStick = plainYogaStickOf('first-seen documents', plainFirstSeenBody)
    const plainYogaNewFormStick = plainYogaStickOf('new forms', () => JSON.stringify({ query: newFormQuery(plainDocuments++) }))
    const restOrdersStick: Yardstick = {
      name: 'REST orders list (same minute)',
      url: () => service.url,
      cpu,
      scenario: { name: 'orders list', options: (url) => ({ url: `${url}/api/exchange/v1/orders?limit=100`, headers: auth }) },
    }
    const gqlRequest = (body: () => string): Partial<autocannon.Options> => ({
      requests: [{ method: 'POST', path: '/graphql', headers: auth, setupRequest: (req: any) => ({ ...req, body: body() }) }],
    })

    // Refresh tokens are single-use: a shared pool, refilled by each response.
    const refreshPool: string[] = []
    for (let i = 0; i < CONNECTIONS * 3; i++) refreshPool.push((await login()).tokens.refresh)

    // The amend scenario's resting orders: sells no buy of the bench reaches, one per connection,
    // each moved between two prices by every other amend of it (docs/api.md, "Order lifecycle").
    const AMEND_PRICES = ['70000.00', '70001.00']
    const amended: string[] = []
    if (!ONLY || ONLY.some((o) => 'amend'.startsWith(o))) {
      for (let i = 0; i < CONNECTIONS; i++) {
        const body = JSON.stringify({ symbol: 'BTC-USDT', side: 'sell', type: 'limit', quantity: '0.01', price: AMEND_PRICES[0] })
        amended.push((await json(`${service.url}/api/exchange/v1/orders`, { method: 'POST', headers: otherAuth, body })).uid)
      }
    }
    let amends = 0

    const scenarios: Scenario[] = [
      { name: 'REST symbols (same token)', goal: { ratio: 0.4 }, options: (url) => ({ url: `${url}/api/exchange/v1/symbols`, headers: auth }) },
      {
        // Beside the one above: what a DPoP call costs more (docs/dpop.md, "Cost"). A fresh proof per request.
        name: 'REST symbols (DPoP-bound token)',
        options: () => ({
          requests: [
            {
              method: 'GET',
              path: '/api/exchange/v1/symbols',
              headers: dpopAuth,
              setupRequest: (req: any) => ({ ...req, headers: { ...dpopAuth, dpop: dpopProof('GET', '/api/exchange/v1/symbols', { ath: dpopAth }) } }),
            },
          ],
        }),
      },
      {
        name: 'GraphQL symbols (same data)',
        goal: { ratio: 0.15 },
        options: (url) => ({ url: `${url}/graphql`, method: 'POST', headers: auth, body: graphqlQuery }),
      },
      {
        name: 'login',
        goal: { requestsPerSec: 3000 },
        options: (url) => ({ url: `${url}/api/sso/v1/auth/login`, method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody }),
      },
      {
        name: 'refresh (fresh token per request)',
        goal: { requestsPerSec: 2000 },
        options: () => ({
          requests: [
            {
              method: 'POST',
              path: '/api/sso/v1/auth/refresh',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ refresh_token: refreshPool.shift() ?? 'exhausted' }) }),
              onResponse: (status: number, body: string) => {
                if (status === 200) refreshPool.push(JSON.parse(body).tokens.refresh)
              },
            },
          ],
        }),
      },
      {
        name: 'order creation',
        goal: { requestsPerSec: 1500 },
        options: (url) => ({
          url: `${url}/api/exchange/v1/orders`,
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.01', price: '65000.00' }),
        }),
      },
      { name: 'orders list', options: (url) => ({ url: `${url}/api/exchange/v1/orders?limit=100`, headers: auth }) },
      {
        name: 'GraphQL symbols (variables vary)',
        compare: { yardstick: plainYogaStick, goal: 3 },
        options: () => gqlRequest(varyingBody),
      },
      {
        name: 'GraphQL symbols (first-seen documents)',
        compare: { yardstick: plainYogaStick, goal: 1 },
        options: () => gqlRequest(firstSeenBody),
      },
      {
        name: 'GraphQL symbols (first-seen documents, both sides)',
        compare: { yardstick: plainYogaFirstSeenStick, goal: 1 },
        options: () => gqlRequest(firstSeenBody),
      },
      {
        // Reported, no goal: what a document of a form the service has not seen costs (docs/performance.md).
        name: 'GraphQL symbols (new forms, both sides)',
        compare: { yardstick: plainYogaNewFormStick },
        options: () => gqlRequest(newFormBody),
      },
      {
        name: 'GraphQL orders(limit: 100)',
        compare: { yardstick: restOrdersStick, goal: 0.7 },
        options: (url) => ({ url: `${url}/graphql`, method: 'POST', headers: auth, body: graphqlOrders }),
      },
      {
        name: 'matching (crossing orders, one symbol)',
        goal: { requestsPerSec: 2500 },
        options: () => ({
          requests: [
            { method: 'POST', path: '/api/exchange/v1/orders', headers: auth, body: crossing('buy') },
            { method: 'POST', path: '/api/exchange/v1/orders', headers: otherAuth, body: crossing('sell') },
          ],
        }),
      },
      {
        name: 'amend (resting orders repriced back and forth)',
        goal: { requestsPerSec: 2500 },
        options: () => ({
          requests: [
            {
              method: 'PATCH',
              headers: otherAuth,
              setupRequest: (req: any) => {
                const n = amends++
                const price = AMEND_PRICES[Math.floor(n / amended.length) % 2]
                return { ...req, path: `/api/exchange/v1/orders/${amended[n % amended.length]}`, body: JSON.stringify({ price }) }
              },
            },
          ],
        }),
      },
      {
        name: `market data: ticker (${MARKET_DATA_TRADES} trades stored)`,
        p99: 20,
        enabled: MARKET_DATA,
        options: (url) => ({ url: `${url}/api/exchange/v1/symbols/${MARKET_DATA_SYMBOL}/ticker`, headers: auth }),
      },
      {
        name: `market data: 1000 1m candles (${MARKET_DATA_TRADES} trades stored)`,
        p99: 20,
        enabled: MARKET_DATA,
        options: (url) => ({ url: `${url}/api/exchange/v1/symbols/${MARKET_DATA_SYMBOL}/candles?interval=1m&limit=1000`, headers: auth }),
      },
    ]

    const baselineScenario: Scenario = { name: 'baseline (node:http, precomputed bytes)', options: () => ({}) }
    const results: Result[] = []
    for (const scenario of scenarios) {
      if (ONLY && !ONLY.some((o) => scenario.name.startsWith(o))) continue
      if (scenario.enabled === false) continue
      process.stderr.write(`running: baseline, ${scenario.compare ? `${scenario.compare.yardstick.name}, ` : ''}then ${scenario.name}\n`)
      const base = await measure(baselineScenario, baseline.url)
      if (scenario.name.startsWith('GraphQL orders')) await placeOrders(service.url, auth, 100)
      const stick = scenario.compare && (await measure(scenario.compare.yardstick.scenario, scenario.compare.yardstick.url(), scenario.compare.yardstick.cpu))
      const result = await measure(scenario, service.url, cpu)
      result.baselineRequestsPerSec = base.requestsPerSec
      result.ratio = Number((result.requestsPerSec / base.requestsPerSec).toFixed(3))
      judge(result, scenario.goal, scenario.p99)
      if (scenario.compare && stick) {
        const ratio = Number((result.requestsPerSec / stick.requestsPerSec).toFixed(3))
        const goal = scenario.compare.goal
        const goalMet = (goal === undefined || ratio >= goal) && result.errors === 0 && stick.errors === 0
        result.yardstick = {
          name: scenario.compare.yardstick.name,
          requestsPerSec: stick.requestsPerSec,
          p99: stick.p99,
          ...(stick.serviceCpuUs !== undefined ? { cpuUs: stick.serviceCpuUs } : {}),
          ...(stick.loadCpuUs !== undefined ? { loadCpuUs: stick.loadCpuUs } : {}),
          ratio,
          goal: goal === undefined ? 'reported' : `≥ ${goal.toFixed(2)}×`,
          goalMet,
        }
        errors += stick.errors
      }
      results.push(result)
      errors += result.errors
    }

    let engine = ''
    if (!ONLY || ONLY.some((o) => 'matching'.startsWith(o) || o.startsWith('matching'))) {
      // What the matched orders cost in the service, against the engine alone (no database, no HTTP).
      const traded = async (headers: Record<string, string>, status: string) =>
        (await json(`${service.url}/api/exchange/v1/orders?symbol=ETH-USDT&status=${status}&limit=1`, { headers })).total as number
      const filled = (await traded(auth, 'filled')) + (await traded(otherAuth, 'filled'))
      const resting =
        (await traded(auth, 'open')) +
        (await traded(otherAuth, 'open')) +
        (await traded(auth, 'partially_filled')) +
        (await traded(otherAuth, 'partially_filled'))
      engine =
        `\nMatching scenario: ${filled} orders filled, ${resting} still resting at the end.\n` +
        `Matching engine alone (bench/order-book.ts, in memory, no database):\n${await run(['bench/order-book.ts', '100000'], env)}`
    }

    let instances: InstancesRun[] | undefined
    if (INSTANCES) {
      const second = await startChild('dist/src/app/main.js', [], serviceEnv, path.join(logDir, 'service-2.log'))
      try {
        instances = await measureInstances({
          urls: [service.url, second.url],
          connections: CONNECTIONS,
          durationSeconds: DURATION,
          warmupSeconds: WARMUP,
          buyer: auth,
          seller: otherAuth,
          pairs: Number(env.BENCH_PAIRS ?? 2),
          cpu: async () => ({ service: cpuMs(service.process.pid!) + cpuMs(second.process.pid!), database: await databaseCpuMs(serviceEnv.DATABASE_URL) }),
        })
        errors += instances.reduce((sum, r) => sum + r.errors, 0)
      } finally {
        await second.stop()
      }
    }

    let events: EventsResult | undefined
    if (EVENTS) {
      process.stderr.write('running: events\n')
      events = await measureEvents({ url: service.url, pid: service.process.pid!, clients: eventClients, durationSeconds: DURATION, warmupSeconds: WARMUP })
      errors += events.non201 + events.requestErrors + events.lost
    }

    let statements: StatementResult[] | undefined
    if (STATEMENTS) {
      process.stderr.write('running: statements\n')
      statements = await measureStatements(service.url, token, service.process.pid!)
    }

    const header = `| scenario | req/s | p50 ms | p99 ms | errors | baseline req/s (measured just before) | ratio to baseline | goal | met | service CPU µs/req | database CPU µs/req |`
    const rows = results.map(
      (r) =>
        `| ${r.scenario} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.baselineRequestsPerSec} | ${r.ratio!.toFixed(3)}× | ${r.goal} | ${r.goalMet ? 'yes' : 'no'} | ${r.serviceCpuUs} | ${r.databaseCpuUs ?? '—'} |`,
    )
    const compared = results.filter((r) => r.yardstick)
    const compareRows = compared.map(({ scenario, requestsPerSec, p99, serviceCpuUs, databaseCpuUs, loadCpuUs, yardstick: y }) =>
      [
        scenario,
        requestsPerSec,
        p99,
        serviceCpuUs,
        databaseCpuUs ?? '—',
        loadCpuUs,
        y!.name,
        y!.requestsPerSec,
        y!.p99,
        y!.cpuUs ?? '—',
        y!.loadCpuUs,
        `${y!.ratio.toFixed(3)}×`,
        y!.goal,
        // A reported comparison has no goal to meet (its errors show in the table above).
        y!.goal === 'reported' ? '—' : y!.goalMet ? 'yes' : 'no',
      ].join(' | '),
    )
    const compareTable = compared.length
      ? `\nSide by side with a second yardstick measured right before (CPU µs/req: the service's process, PostgreSQL's backends and the load generator, autocannon in the bench's process; the yardstick's own process and the load generator's while driving it):\n\n` +
        `| scenario | req/s | p99 ms | service CPU µs/req | database CPU µs/req | load generator CPU µs/req | yardstick | its req/s | its p99 ms | its CPU µs/req | its load generator CPU µs/req | ratio to it | goal | met |\n` +
        `|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n${compareRows.map((r) => `| ${r} |`).join('\n')}\n`
      : ''
    const database = env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'
    process.stdout.write(
      `\nDatabase: ${database}; ${CONNECTIONS} connections; ${DURATION}s measured after ${WARMUP}s warm-up; node ${process.version}\n\n` +
        `${results.length > 0 ? `${header}\n|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n` : ''}${compareTable}${engine}${instances ? formatInstances(instances) : ''}${events ? formatEvents(events) : ''}${statements ? formatStatements(statements) : ''}`,
    )
    writeFileSync(
      path.join(ROOT, 'bench/results.json'),
      `${JSON.stringify({ date: new Date().toISOString(), database, connections: CONNECTIONS, duration: DURATION, node: process.version, results, instances, events, statements }, null, 2)}\n`,
    )
    completed = true
  } finally {
    await baseline?.stop()
    await plainYoga?.stop()
    await service.stop()
    await dropDatabase?.()
    rmSync(dataDir, { recursive: true, force: true })
    if (completed && errors === 0) rmSync(logDir, { recursive: true, force: true })
    else process.stderr.write(`the service's log: ${path.join(logDir, 'service.log')}\n`)
  }
}

/** Places limit buys that rest until the tenant has at least `count` orders (the GraphQL orders scenario reads a full page). */
async function placeOrders(url: string, headers: Record<string, string>, count: number): Promise<void> {
  const { total } = (await json(`${url}/api/exchange/v1/orders?limit=1`, { headers })) as { total: number }
  const body = JSON.stringify({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.01', price: '65000.00' })
  for (let i = total; i < count; i++) await json(`${url}/api/exchange/v1/orders`, { method: 'POST', headers, body })
}

/** Fills in the goal text and whether this run met it (throughput or ratio, p99, no errors). */
function judge(result: Result, goal: Scenario['goal'], p99 = P99_GOAL_MS): void {
  const parts: string[] = []
  let met = result.p99 <= p99 && result.errors === 0
  if (goal && 'ratio' in goal) {
    parts.push(`≥ ${goal.ratio.toFixed(2)}×`)
    met &&= result.ratio! >= goal.ratio
  } else if (goal) {
    parts.push(`≥ ${goal.requestsPerSec} req/s`)
    met &&= result.requestsPerSec >= goal.requestsPerSec
  }
  parts.push(`p99 ≤ ${p99} ms`, '0 errors')
  result.goal = parts.join(', ')
  result.goalMet = met
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
