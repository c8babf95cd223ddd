import { createHash } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { KNOWN_SCOPES } from '../src/app/cli-commands.ts'
import { routes } from '../src/app/routes.ts'
import { type OpenCli, openCli } from './helpers/cli.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'

let database: TestDatabase
let open: OpenCli
beforeAll(async () => {
  database = await createTestDatabase()
  open = await openCli(database)
})
afterAll(async () => {
  await open?.close()
  await database?.drop()
})

// The commands run in this process on one open database (test/helpers/cli.ts).
const cli = (...args: string[]) => open.run(...args)
const lines = (text: string) => text.split('\n').filter(Boolean)

describe('operator CLI', () => {
  it('client create prints exactly one JSON line and stores only a digest of the secret', async () => {
    const result = await cli('client', 'create', '--name', 'Bank A')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(lines(result.stdout)).toHaveLength(1)
    const created = JSON.parse(result.stdout)
    expect(Object.keys(created)).toEqual(['client_id', 'client_secret', 'tenant_id', 'roles', 'scopes'])
    expect(created.client_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.tenant_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(created.roles).toEqual(['client'])
    expect(created.scopes).toEqual([
      'symbols:read',
      'orders:read',
      'orders:write',
      'users:read',
      'users:write',
      'accounts:read',
      'webhooks:read',
      'webhooks:write',
    ])

    const row = await open.db.selectFrom('clients').selectAll().where('id', '=', created.client_id).executeTakeFirstOrThrow()
    expect(row.secret_digest).toBe(createHash('sha256').update(created.client_secret).digest('base64url'))
    expect(JSON.stringify(row)).not.toContain(created.client_secret)
  })

  it('client create takes tenant, roles and scopes', async () => {
    const first = JSON.parse((await cli('client', 'create', '--name', 'Bank B')).stdout)
    const result = await cli('client', 'create', '--name', 'Bank B ops', '--tenant', first.tenant_id, '--roles', 'admin', '--scopes', 'symbols:read,orders:*')
    expect(result.code).toBe(0)
    const second = JSON.parse(result.stdout)
    expect(second.tenant_id).toBe(first.tenant_id)
    expect(second.roles).toEqual(['admin'])
    expect(second.scopes).toEqual(['symbols:read', 'orders:*'])
  })

  it('rejects bad input with a clear message and changes nothing', async () => {
    const before = lines((await cli('client', 'list')).stdout).length
    const badScope = await cli('client', 'create', '--name', 'X', '--scopes', 'not a scope')
    expect(badScope.code).toBe(2)
    expect(badScope.stderr).toContain('--scopes')
    const badTenant = await cli('client', 'create', '--name', 'X', '--tenant', '00000000-0000-4000-8000-000000000000')
    expect(badTenant.code).toBe(1)
    expect(badTenant.stderr).toContain('does not exist')
    const noName = await cli('client', 'create')
    expect(noName.code).toBe(2)
    expect(noName.stderr).toContain('--name')
    const unknown = await cli('frobnicate')
    expect(unknown.code).toBe(2)
    expect(lines((await cli('client', 'list')).stdout)).toHaveLength(before)
  })

  it('refuses an unknown scope or role with exit 2 naming the valid ones, and creates nothing', async () => {
    const before = lines((await cli('client', 'list')).stdout).length
    const scope = await cli('client', 'create', '--name', 'Typo bank', '--scopes', 'symbols:read,accounts:wirte')
    expect(scope.code).toBe(2)
    expect(scope.stdout).toBe('')
    expect(scope.stderr.split('\n')[0]).toBe(
      'Unknown scope in --scopes: "accounts:wirte". Valid: symbols:read, orders:read, orders:write, users:read, users:write, accounts:read, ' +
        'webhooks:read, webhooks:write, accounts:write, audit:read, accounts:withdraw; * for either part (orders:*, *:read, *:*)',
    )
    const wildcard = await cli('client', 'create', '--name', 'Typo bank', '--scopes', 'ordres:*,*:wirte')
    expect(wildcard.code).toBe(2)
    expect(wildcard.stderr).toContain('Unknown scopes in --scopes: "ordres:*", "*:wirte". Valid: ')
    const role = await cli('client', 'create', '--name', 'Typo bank', '--roles', 'admn')
    expect(role.code).toBe(2)
    expect(role.stderr.split('\n')[0]).toBe('Unknown role in --roles: "admn". Valid: client, admin')
    expect(lines((await cli('client', 'list')).stdout)).toHaveLength(before)

    // Wildcards whose named parts are known stay valid.
    const wild = await cli('client', 'create', '--name', 'Wild bank', '--roles', 'client,admin', '--scopes', 'orders:*,*:read,*:*')
    expect(wild.stderr).toBe('')
    expect(JSON.parse(wild.stdout)).toMatchObject({ roles: ['client', 'admin'], scopes: ['orders:*', '*:read', '*:*'] })
  })

  it('knows every scope a REST route requires', () => {
    const required = new Set(routes.flatMap((route) => (route.doc.scope ? [route.doc.scope] : [])))
    expect([...required].filter((scope) => !KNOWN_SCOPES.includes(scope))).toEqual([])
    expect(required.size).toBeGreaterThan(3)
  })

  it('names a refused value by the flag or argument that gave it, not by a body location', async () => {
    const tenant = JSON.parse((await cli('client', 'create', '--name', 'Flag bank')).stdout).tenant_id
    await cli('db', 'seed')
    const deposit = await cli('account', 'deposit', '--tenant', tenant, '--currency', 'USD', '--amount', 'lots', '--reference', 'wire-9')
    expect(deposit.code).toBe(1)
    expect(deposit.stderr).not.toContain('"body"')
    expect(deposit.stderr).toMatch(/^Validation failed\n {2}--amount: .+\n$/)
    const price = await cli('symbol', 'set-reference-price', 'USD-IRR', '--', '-5')
    expect(price.code).toBe(1)
    expect(price.stderr).toBe('Validation failed\n  PRICE: price must be a positive decimal\n')
  })

  it('lists, deactivates and rotates secrets of clients', async () => {
    const created = JSON.parse((await cli('client', 'create', '--name', 'Bank C')).stdout)
    const listed = lines((await cli('client', 'list')).stdout).map((l) => JSON.parse(l))
    const entry = listed.find((c) => c.client_id === created.client_id)
    expect(entry).toMatchObject({ client_id: created.client_id, name: 'Bank C', is_active: true })
    expect(JSON.stringify(listed)).not.toContain('secret')

    const rotated = JSON.parse((await cli('client', 'rotate-secret', created.client_id)).stdout)
    expect(rotated.client_id).toBe(created.client_id)
    expect(rotated.client_secret).not.toBe(created.client_secret)

    const deactivated = JSON.parse((await cli('client', 'deactivate', created.client_id)).stdout)
    expect(deactivated).toMatchObject({ client_id: created.client_id, is_active: false })
    const missing = await cli('client', 'deactivate', 'not-a-uuid')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('does not exist')
  })

  it('lists and rotates signing keys', async () => {
    await cli('db', 'migrate')
    const rotated = JSON.parse((await cli('keys', 'rotate')).stdout)
    expect(rotated.kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const keys = lines((await cli('keys', 'list')).stdout).map((l) => JSON.parse(l))
    expect(keys[0]).toMatchObject({ kid: rotated.kid, alg: 'EdDSA', signing: true, retired_at: null })
    expect(JSON.stringify(keys)).not.toMatch(/"d"|private/)
  })

  it('seeds the demo market and manages symbols', async () => {
    expect(JSON.parse((await cli('db', 'seed')).stdout)).toEqual({ currencies: 9, symbols: 8 })
    expect(JSON.parse((await cli('db', 'seed')).stdout)).toEqual({ currencies: 9, symbols: 8 })
    expect(JSON.parse((await cli('symbol', 'set-reference-price', 'USD-IRR', '1050000')).stdout)).toEqual({ symbol: 'USD-IRR', reference_price: '1050000' })
    expect(JSON.parse((await cli('symbol', 'deactivate', 'USD-IRR')).stdout)).toEqual({ symbol: 'USD-IRR', is_active: false })
    expect(JSON.parse((await cli('symbol', 'activate', 'USD-IRR')).stdout)).toEqual({ symbol: 'USD-IRR', is_active: true })
    // `-5` reads as an option (a usage error, exit 2); after `--` it is the price, and refused (exit 1).
    expect((await cli('symbol', 'set-reference-price', 'USD-IRR', '-5')).code).toBe(2)
    const bad = await cli('symbol', 'set-reference-price', 'USD-IRR', '--', '-5')
    expect(bad.code).toBe(1)
    const unknown = await cli('symbol', 'activate', 'NOPE-IRR')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('does not exist')
  })
})
