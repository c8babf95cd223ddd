import { randomUUID } from 'node:crypto'
import { createClient, type CreateClientInput } from '../../src/modules/auth/clients.ts'
import { signAccessToken } from '../../src/modules/auth/tokens.ts'
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
 * Creates a client (operator CLI operation) and gives it an access token.
 * Accepts `name`, `tenant_id`, `roles`, `scopes` as the CLI does.
 */
export async function createTestClient(server: TestServer, input: Partial<CreateClientInput> = {}): Promise<TestClient> {
  const created = await createClient(server.services.db, { name: input.name ?? `Bank ${randomUUID().slice(0, 8)}`, ...input })
  const { token } = await signAccessToken(server.services.keys, server.config, {
    clientId: created.client_id,
    tenantId: created.tenant_id,
    sessionId: randomUUID(),
    roles: created.roles,
    scopes: created.scopes,
  })
  return {
    clientId: created.client_id,
    clientSecret: created.client_secret,
    tenantId: created.tenant_id,
    roles: created.roles,
    scopes: created.scopes,
    token,
  }
}
