import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runBankExample } from '../examples/bank/bank.ts'
import { runDashboardExample } from '../examples/dashboard/dashboard.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// The examples as CI runs them against `npm start` (.ci/run), here in-process: every REST call the
// bank example makes is also checked against openapi.json (helpers/contract.ts).
describe('typed client examples', () => {
  let server: TestServer
  let bank: TestClient
  beforeAll(async () => {
    // As .ci/run starts the service: only the dashboard's documents, sent by id, run.
    server = await startTestServer({
      GRAPHQL_PERSISTED_DOCUMENTS: 'examples/dashboard/generated/persisted-documents.json',
      GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true',
    })
    await seedDemoMarket(server.services.db)
    bank = await createTestClient(server)
  })
  afterAll(async () => {
    await server?.close()
  })

  const credentials = () => ({ client_id: bank.clientId, client_secret: bank.clientSecret })

  it('examples/bank: logs in, refreshes, lists symbols, places an order idempotently and reads it back over REST', async () => {
    const lines: string[] = []
    const { orderUid } = await runBankExample({ baseUrl: server.url, credentials: credentials(), log: (line) => lines.push(line) })
    expect(lines).toEqual([
      expect.stringMatching(/^logged in; the access token expires in \d+ s$/),
      expect.stringMatching(/^refreshed;/),
      expect.stringMatching(/^symbols \(\d+ active\): .*USD-IRR/),
      expect.stringMatching(/^placed order [0-9a-f-]{36}: buy \S+ USD-IRR at 1050000, open$/),
      'retried with the same client_order_id: answered 200 with the same order',
      expect.stringMatching(/^read back: [0-9a-f-]{36} is open/),
    ])
    const stored = await server.request('GET', `/api/exchange/v1/orders/${orderUid}`, { token: bank.token })
    expect(stored.body).toMatchObject({ uid: orderUid, tenant_id: bank.tenantId, symbol: 'USD-IRR', side: 'buy' })
  })

  it('examples/dashboard: the same through GraphQL with client-preset documents', async () => {
    const lines: string[] = []
    const { orderUid } = await runDashboardExample({ baseUrl: server.url, credentials: credentials(), log: (line) => lines.push(line) })
    expect(lines).toEqual([
      expect.stringMatching(/^logged in;/),
      expect.stringMatching(/^refreshed;/),
      expect.stringMatching(/^symbols \(\d+ active\): .*USD-IRR \(USD\/IRR\)/),
      expect.stringMatching(/^placed order [0-9a-f-]{36}: open$/),
      'retried with the same clientOrderId: created false, the same order',
      expect.stringMatching(/^read back: /),
      expect.stringMatching(/^followed orderEvents over WebSocket: order\.created of [0-9a-f-]{36} at sequence \d+$/),
    ])
    expect((await server.request('GET', `/api/exchange/v1/orders/${orderUid}`, { token: bank.token })).status).toBe(200)
  })

  it('examples/bank: a refused login says why', async () => {
    await expect(runBankExample({ baseUrl: server.url, credentials: { ...credentials(), client_secret: 'wrong' }, log: () => {} })).rejects.toThrow(
      'login refused: Authentication failed',
    )
  })
})
