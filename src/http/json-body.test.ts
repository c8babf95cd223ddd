import { describe, expect, it } from 'vitest'

import { AppError } from '../core/errors.ts'
import { MAX_JSON_DEPTH, parseJsonText } from './json-body.ts'

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('parseJsonText', () => {
  it('renders the reference 422 shape', () => {
    try {
      parseJsonText('{"client_id": ')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).status).toBe(422)
      expect((error as AppError).detail).toEqual([
        { type: 'json_invalid', loc: ['body', 14], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } },
      ])
    }
  })

  it(`parses ${MAX_JSON_DEPTH} levels and refuses one more, ignoring brackets inside strings`, () => {
    expect(() => parseJsonText(nested(MAX_JSON_DEPTH))).not.toThrow()
    expect(parseJsonText(`{"a":"${'['.repeat(1000)}"}`)).toEqual({ a: '['.repeat(1000) })
    expect(parseJsonText(`{"a":"\\"[[[[","b":${nested(MAX_JSON_DEPTH - 1)}}`)).toMatchObject({ a: '"[[[[' })
    try {
      parseJsonText(`{"a":${nested(MAX_JSON_DEPTH)}}`)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).detail).toEqual([
        { type: 'json_invalid', loc: ['body', 5 + MAX_JSON_DEPTH - 1], msg: 'JSON decode error', input: {}, ctx: { error: 'Maximum nesting depth exceeded' } },
      ])
    }
  })
})
