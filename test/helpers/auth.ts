import { randomUUID } from 'node:crypto'

import { createClient, type CreateClientInput } from '../../src/modules/auth/clients/clients.ts'
import { login } from '../../src/modules/auth/sessions/login.ts'
import { fundTenants } from './funding.ts'
import type { TestServer } from './server.ts'

export interface TestClient {
  clientId: string
  clientSecret: string
  tenantId: string
  roles: string[]
  scopes: string[]
  /** A valid access token for this client. */
  token: string
}

/**
 * Creates a client (operator CLI operation) and logs it in (the login operation, so the token
 * belongs to a real session). Accepts `name`, `tenant_id`, `roles`, `scopes` as the CLI does.
 */
export async function createTestClient(server: TestServer, input: Partial<CreateClientInput> & { funded?: boolean } = {}): Promise<TestClient> {
  const { funded = true, ...fields } = input
  const created = await createClient(server.services.db, { name: fields.name ?? `Bank ${randomUUID().slice(0, 8)}`, ...fields })
  // Tests of trading trade with funded tenants; tests of accounts start from nothing.
  if (funded) await fundTenants(server.services.db, [created.tenant_id])
  const { tokens } = await login(server.services, { client_id: created.client_id, client_secret: created.client_secret }, '127.0.0.1')
  return {
    clientId: created.client_id,
    clientSecret: created.client_secret,
    tenantId: created.tenant_id,
    roles: created.roles,
    scopes: created.scopes,
    token: tokens.access,
  }
}

/**
 * Runs `attempt` with a fresh access token of `client` that expires in 1 second, then (when it
 * answers `undefined`: the host was too busy to take the steps before the token expired) with
 * one of 2, 4 and 8 seconds. For expiry tests: the server keeps its usual ACCESS_TOKEN_TTL, so no
 * server of their own, and no fixed lifetime that a slow host outruns.
 */
export async function withExpiringToken<T>(server: TestServer, client: TestClient, attempt: (token: string) => Promise<T | undefined>): Promise<T> {
  const seconds = [1, 2, 4, 8]
  for (const lifetime of seconds) {
    const config = { ...server.services.config, accessTokenTtl: lifetime }
    const { tokens } = await login({ ...server.services, config }, { client_id: client.clientId, client_secret: client.clientSecret }, '127.0.0.1')
    const outcome = await attempt(tokens.access)
    if (outcome !== undefined) return outcome
  }
  throw new Error(`the steps did not fit in tokens living ${seconds.join(', ')} s`)
}
