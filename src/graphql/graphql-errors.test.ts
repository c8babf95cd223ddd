import { describe, expect, it } from 'vitest'

import { AppError } from '../core/errors.ts'
import { toGraphQLError } from './graphql-errors.ts'

describe('toGraphQLError of authorization failures', () => {
  it('is FORBIDDEN with HTTP 403 and the REST error name', () => {
    const rendered = toGraphQLError(new AppError('forbidden', 'Access denied: requires orders:read'))
    expect(rendered.message).toBe('Access denied: requires orders:read')
    expect(rendered.extensions).toEqual({ code: 'FORBIDDEN', error: 'permission_denied', http: { status: 403 } })
  })

  it('is UNAUTHENTICATED with HTTP 401 for token failures', () => {
    const rendered = toGraphQLError(new AppError('unauthenticated', 'JWT has expired'))
    expect(rendered.extensions).toEqual({ code: 'UNAUTHENTICATED', error: 'Unauthorized', http: { status: 401 } })
  })
})
