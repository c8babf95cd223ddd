import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { assertTenantAccess, AuthContext, hasScope, type HeaderVerifier, isAdmin, type Principal, scopeAllows } from './auth.ts'
import { AppError, restErrorBody } from './errors.ts'

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  clientId: 'c1',
  tenantId: 't1',
  sessionId: 's1',
  roles: ['client'],
  scopes: [],
  jti: 'j1',
  exp: 0,
  ...overrides,
})

function contextFor(p: Principal | Error): { auth: AuthContext; calls: () => number } {
  let calls = 0
  const verifier = {
    verifyHeader: async () => {
      calls++
      if (p instanceof Error) throw p
      return p
    },
  } as HeaderVerifier
  return { auth: new AuthContext('Bearer x.y.z', verifier), calls: () => calls }
}

const part = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/)

describe('scopeAllows', () => {
  it.each([
    ['orders:read', 'orders:read', true],
    ['orders:read', 'orders:write', false],
    ['orders:read', 'symbols:read', false],
    ['orders:*', 'orders:read', true],
    ['orders:*', 'orders:write', true],
    ['orders:*', 'symbols:read', false],
    ['*:read', 'orders:read', true],
    ['*:read', 'symbols:read', true],
    ['*:read', 'orders:write', false],
    ['*:*', 'orders:write', true],
    ['*:*', 'users:read', true],
    ['orders', 'orders:read', false],
    ['*', 'orders:read', false],
    ['', 'orders:read', false],
    ['orders:read:extra', 'orders:read', false],
    ['orders:*', 'orders:read:extra', false],
    ['ORDERS:read', 'orders:read', false],
    ['order:read', 'orders:read', false],
  ])('%s grants %s: %s', (granted, required, expected) => {
    expect(scopeAllows(granted, required)).toBe(expected)
  })

  it('grants exactly what the wildcard rules say, for any resource and action', () => {
    fc.assert(
      fc.property(part, part, part, part, (gr, ga, rr, ra) => {
        const required = `${rr}:${ra}`
        expect(scopeAllows(`${gr}:${ga}`, required)).toBe(gr === rr && ga === ra)
        expect(scopeAllows(`${gr}:*`, required)).toBe(gr === rr)
        expect(scopeAllows(`*:${ga}`, required)).toBe(ga === ra)
        expect(scopeAllows('*:*', required)).toBe(true)
      }),
    )
  })
})

describe('hasScope and isAdmin', () => {
  it('looks through every granted scope', () => {
    const p = principal({ scopes: ['symbols:read', 'orders:*'] })
    expect(hasScope(p, 'symbols:read')).toBe(true)
    expect(hasScope(p, 'orders:write')).toBe(true)
    expect(hasScope(p, 'users:read')).toBe(false)
    expect(hasScope(principal({ scopes: [] }), 'symbols:read')).toBe(false)
  })

  it('knows admins by role, not by scope', () => {
    expect(isAdmin(principal({ roles: ['admin'] }))).toBe(true)
    expect(isAdmin(principal({ roles: ['client', 'admin'] }))).toBe(true)
    expect(isAdmin(principal({ roles: ['client'], scopes: ['*:*'] }))).toBe(false)
    expect(isAdmin(principal({ roles: ['Admin'] }))).toBe(false)
  })
})

describe('AuthContext.require', () => {
  it('returns the principal when the scope is granted, verifying the header once per request', async () => {
    const p = principal({ scopes: ['orders:*'] })
    const { auth, calls } = contextFor(p)
    expect(await auth.require('orders:write')).toBe(p)
    expect(await auth.require()).toBe(p)
    expect(await auth.require('orders:read')).toBe(p)
    expect(calls()).toBe(1)
  })

  it('answers a missing scope with 403 "Access denied: requires <scope>"', async () => {
    const { auth } = contextFor(principal({ scopes: ['orders:read', '*:write'] }))
    const error = await auth.require('symbols:read').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).status).toBe(403)
    expect(restErrorBody(error as AppError)).toEqual({
      message: 'Access denied: requires symbols:read',
      error: 'permission_denied',
      detail: 'Access denied: requires symbols:read',
    })
    expect(await auth.require('users:write')).toBeDefined()
  })

  it('does not let the admin role stand in for a scope', async () => {
    const { auth } = contextFor(principal({ roles: ['admin'], scopes: [] }))
    await expect(auth.require('orders:read')).rejects.toMatchObject({ kind: 'forbidden', message: 'Access denied: requires orders:read' })
  })

  it('passes authentication failures through unchanged', async () => {
    const failure = new AppError('unauthenticated', 'JWT has expired')
    const { auth } = contextFor(failure)
    await expect(auth.require('orders:read')).rejects.toBe(failure)
  })
})

describe('assertTenantAccess', () => {
  it('lets a token reach its own tenant only, and admins every tenant', () => {
    expect(() => assertTenantAccess(principal({ tenantId: 't1' }), 't1')).not.toThrow()
    expect(() => assertTenantAccess(principal({ roles: ['admin'], tenantId: 't1' }), 't2')).not.toThrow()
    let error: unknown
    try {
      assertTenantAccess(principal({ tenantId: 't1', scopes: ['*:*'] }), 't2')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).status).toBe(403)
    expect(restErrorBody(error as AppError)).toEqual({
      message: 'Token belongs to different client',
      error: 'permission_denied',
      detail: 'Token belongs to different client',
    })
  })
})
