import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CreateUserDocument } from './generated/graphql.ts'
import { createTestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const USERS = '/api/user/v1/users'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const conflictBody = (username: string) => {
  const message = `Username "${username}" is already in use in this tenant`
  return { message, error: 'conflict', detail: message }
}

describe('concurrent user creation', () => {
  it('creates exactly one of 20 simultaneous requests for one username; the rest are 409', async () => {
    const bank = await createTestClient(server)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => server.request('POST', USERS, { token: bank.token, body: { username: 'racer', email: `racer${i}@bank.example` } })),
    )
    const created = responses.filter((r) => r.status === 201)
    const refused = responses.filter((r) => r.status === 409)
    expect(created).toHaveLength(1)
    expect(refused).toHaveLength(19)
    for (const r of refused) expect(r.body).toEqual(conflictBody('racer'))

    const list = await server.request('GET', `${USERS}?username=racer`, { token: bank.token })
    expect(list.body.total).toBe(1)
    expect(list.body.items).toEqual([created[0]!.body])
  })

  it('treats usernames differing only in case as one, even when they race', async () => {
    const bank = await createTestClient(server)
    const names = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'Racer' : 'rAcEr'))
    const responses = await Promise.all(
      names.map((username, i) => server.request('POST', USERS, { token: bank.token, body: { username, email: `r${i}@bank.example` } })),
    )
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1)
    responses.forEach((r, i) => {
      if (r.status !== 201) {
        expect(r.status).toBe(409)
        expect(r.body).toEqual(conflictBody(names[i]!))
      }
    })
    const list = await server.request('GET', `${USERS}?username=racer`, { token: bank.token })
    expect(list.body.total).toBe(1)
  })

  it('keeps the race per tenant: each of several banks gets its own user of that name', async () => {
    const banks = await Promise.all(Array.from({ length: 4 }, () => createTestClient(server)))
    const responses = await Promise.all(
      banks.flatMap((bank) =>
        Array.from({ length: 5 }, (_, i) => server.request('POST', USERS, { token: bank.token, body: { username: 'shared', email: `s${i}@bank.example` } })),
      ),
    )
    const created = responses.filter((r) => r.status === 201)
    expect(created).toHaveLength(4)
    expect(new Set(created.map((r) => r.body.tenant_id))).toEqual(new Set(banks.map((b) => b.tenantId)))
    expect(responses.filter((r) => r.status === 409)).toHaveLength(16)
  })

  it('creates every one of 20 simultaneous distinct usernames', async () => {
    const bank = await createTestClient(server)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => server.request('POST', USERS, { token: bank.token, body: { username: `user${i}`, email: `u${i}@bank.example` } })),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201))
    const list = await server.request('GET', USERS, { token: bank.token })
    expect(list.body.total).toBe(20)
  })

  it('races REST against GraphQL with the same outcome', async () => {
    const bank = await createTestClient(server)
    const rest = Array.from({ length: 10 }, (_, i) =>
      server.request('POST', USERS, { token: bank.token, body: { username: 'mixed', email: `m${i}@bank.example` } }).then((r) => r.status),
    )
    const graphql = Array.from({ length: 10 }, (_, i) =>
      server
        .graphql(CreateUserDocument, { input: { username: 'mixed', email: `g${i}@bank.example` } }, { token: bank.token })
        .then((r) => (r.errors ? r.errors[0]!.extensions.code : 'CREATED')),
    )
    const outcomes = [...(await Promise.all(rest)), ...(await Promise.all(graphql))]
    const wins = outcomes.filter((o) => o === 201 || o === 'CREATED')
    expect(wins).toHaveLength(1)
    expect(outcomes.filter((o) => o === 409 || o === 'CONFLICT')).toHaveLength(19)
  })
})
