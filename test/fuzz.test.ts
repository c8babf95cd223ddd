import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDemoMarket } from '../src/modules/exchange/seed.ts'
import { routes } from '../src/routes.ts'
import { schema } from '../src/schema.ts'
import { createTestClient } from './helpers/auth.ts'
import { fuzzRequest, Random, type FuzzContext, type FuzzRequest } from './helpers/fuzz-requests.ts'
import { sendRaw, type RawResult } from './helpers/raw-http.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// FUZZ_SEED replays a run; FUZZ_REQUESTS changes its length.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31)
const COUNT = Number(process.env.FUZZ_REQUESTS ?? 10_000)
const CONCURRENCY = 20

let server: TestServer
let ctx: FuzzContext
beforeAll(async () => {
  // The test server's rate limits are high: the requests reach the code behind them, not a 429.
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  const clients = await Promise.all([
    createTestClient(server),
    createTestClient(server, { roles: ['admin'], scopes: ['*:*'] }),
    createTestClient(server, { scopes: ['symbols:read'] }),
  ])
  ctx = {
    routes,
    schema,
    tokens: clients.map((c) => c.token),
    clientIds: clients.map((c) => c.clientId),
    credentials: clients.map((c) => ({ clientId: c.clientId, clientSecret: c.clientSecret })),
  }
})
afterAll(async () => {
  await server?.close()
})

const show = (bytes: Buffer) => JSON.stringify(bytes.subarray(0, 400).toString('latin1'))

describe('fuzzing', () => {
  it(`answers ${COUNT} generated malformed requests across every route without a 5xx, and stays up`, { timeout: 240_000 }, async () => {
    process.stdout.write(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${COUNT} requests, ${routes.length} routes + /graphql + unknown paths\n`)
    const random = new Random(SEED)
    const generating = Date.now()
    const requests: FuzzRequest[] = Array.from({ length: COUNT }, () => fuzzRequest(random, ctx))
    process.stdout.write(`fuzz: generated in ${Date.now() - generating} ms\n`)
    const port = Number(new URL(server.url).port)
    const results: RawResult[] = new Array(COUNT)
    let next = 0
    const started = Date.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < COUNT) {
          const i = next++
          const request = requests[i]!
          const pipelined = request.kind === 'malformed #16'
          results[i] = await sendRaw(port, request.bytes, {
            expected: pipelined ? 2 : 1,
            head: request.bytes.subarray(0, 5).toString() === 'HEAD ',
            end: request.mayGoUnanswered,
          })
        }
      }),
    )
    const failures = requests
      .map((request, i) => ({ request, result: results[i]! }))
      .filter(({ request, result }) => result.statuses.some((s) => s >= 500) || result.timedOut || (result.incomplete && !request.mayGoUnanswered))
    const histogram: Record<string, number> = {}
    for (const r of results) for (const s of r.statuses) histogram[s] = (histogram[s] ?? 0) + 1
    process.stdout.write(`fuzz: ${COUNT} requests in ${Date.now() - started} ms; statuses ${JSON.stringify(histogram)}\n`)
    expect(
      failures.slice(0, 10).map(({ request, result }) => `${request.kind} → ${JSON.stringify(result)}: ${show(request.bytes)}`),
      `seed ${SEED}: ${failures.length} requests failed`,
    ).toEqual([])

    // Not vacuous: a share of the requests got past parsing and validation to real answers.
    const ok = Object.entries(histogram).filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0)
    expect(ok).toBeGreaterThan(COUNT / 50)
    expect(Object.keys(histogram).length).toBeGreaterThan(5)

    // Still serving, REST and GraphQL alike.
    expect((await server.request('GET', '/healthz')).status).toBe(200)
    expect((await server.request('GET', '/readyz')).status).toBe(200)
    const health = await server.graphql('{ health { status database } }')
    expect(health.data).toEqual({ health: { status: 'ok', database: 'ok' } })
  })
})
