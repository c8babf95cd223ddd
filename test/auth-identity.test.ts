import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { formatTimestamp } from '../src/core/timestamps.ts'
import { findClientById } from '../src/modules/auth/clients/clients.repository.ts'
import { ViewerDocument } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const DIFFERENT_CLIENT = { message: 'Token belongs to different client', error: 'permission_denied', detail: 'Token belongs to different client' }
const NOT_FOUND = { message: 'Client not found', error: 'not_found', detail: 'Client not found' }
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const MISSING_ID = '0b7c5d1e-2f3a-4b5c-8d6e-7f8091a2b3c4'

let server: TestServer
let bank: TestClient
let other: TestClient
let admin: TestClient

beforeAll(async () => {
  server = await startTestServer()
  bank = await createTestClient(server, { name: 'Bank Mellat', scopes: ['symbols:read'] })
  other = await createTestClient(server, { name: 'Bank Tejarat' })
  admin = await createTestClient(server, { name: 'Exchange Operators', roles: ['admin'] })
})
afterAll(async () => {
  await server?.close()
})

async function expectedRecord(client: TestClient) {
  const row = (await findClientById(server.services.db, client.clientId))!
  return {
    uid: client.clientId,
    name: row.name,
    tenant_id: client.tenantId,
    roles: client.roles,
    scopes: client.scopes,
    is_active: true,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  }
}

describe('GET /api/sso/v1/users/<client_id>', () => {
  it('answers the caller its own record, with no scope needed', async () => {
    const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: bank.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(await expectedRecord(bank))
    expect(Object.keys(res.body)).toEqual(['uid', 'name', 'tenant_id', 'roles', 'scopes', 'is_active', 'created_at', 'updated_at'])
    expect(res.body.created_at).toMatch(MICROS)
    expect(res.body.name).toBe('Bank Mellat')
    expect(res.body.scopes).toEqual(['symbols:read'])
    expect(res.text).not.toContain('secret')
  })

  it('accepts its own id in upper case', async () => {
    const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId.toUpperCase()}`, { token: bank.token })
    expect(res.status).toBe(200)
    expect(res.body.uid).toBe(bank.clientId)
  })

  it.each([
    ['an existing client', () => other.clientId],
    ['a missing client', () => MISSING_ID],
    ['an id that is not a UUID', () => 'not-a-uuid'],
    ['an admin', () => admin.clientId],
  ])('answers a non-admin asking for %s with the same 403', async (_case, id) => {
    const res = await server.request('GET', `/api/sso/v1/users/${encodeURIComponent(id())}`, { token: bank.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(DIFFERENT_CLIENT)
  })

  it('lets an admin read any client', async () => {
    const res = await server.request('GET', `/api/sso/v1/users/${other.clientId}`, { token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(await expectedRecord(other))
    expect((await server.request('GET', `/api/sso/v1/users/${admin.clientId}`, { token: admin.token })).body).toEqual(await expectedRecord(admin))
  })

  it.each([
    ['a missing client', MISSING_ID],
    ['an id that is not a UUID', 'not-a-uuid'],
    ['an id with SQL in it', "x'; drop table clients; --"],
  ])('answers an admin asking for %s with 404', async (_case, id) => {
    const res = await server.request('GET', `/api/sso/v1/users/${encodeURIComponent(id)}`, { token: admin.token })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(NOT_FOUND)
  })
})

describe('GraphQL viewer', () => {
  it('returns the caller’s own record in camelCase', async () => {
    for (const client of [bank, admin]) {
      const res = await server.graphql(ViewerDocument, {}, { token: client.token })
      expect(res.status).toBe(200)
      const record = await expectedRecord(client)
      expect(res.data).toEqual({
        viewer: {
          uid: record.uid,
          name: record.name,
          tenantId: record.tenant_id,
          roles: record.roles,
          scopes: record.scopes,
          isActive: true,
          createdAt: record.created_at,
          updatedAt: record.updated_at,
        },
      })
    }
  })
})
