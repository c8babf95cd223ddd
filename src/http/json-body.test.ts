import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { AppError, MAX_DETAIL_ITEMS } from '../core/errors.ts'
import { duplicateKeys, MAX_JSON_DEPTH, parseJsonText } from './json-body.ts'

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

const refusal = (text: string) => {
  try {
    parseJsonText(text)
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).status).toBe(422)
    return (error as AppError).detail
  }
  return undefined
}
const duplicate = (...loc: (string | number)[]) => ({ type: 'value_error.json.duplicate_key', loc: ['body', ...loc], msg: 'Duplicate key in JSON object' })

describe('duplicate keys', () => {
  it('refuses a key given twice in one object, at the path to it, each key once', () => {
    expect(refusal('{"side":"sell","quantity":"1","side":"buy"}')).toEqual([duplicate('side')])
    expect(refusal('{"a":1,"a":2,"a":3,"b":{"c":[0,{"d":1,"e":2,"d":{}}],"c":1}}')).toEqual([duplicate('a'), duplicate('b', 'c', 1, 'd'), duplicate('b', 'c')])
    expect(refusal('[{"x":1},[],[{"y":[{"z":1,"z":2}]}]]')).toEqual([duplicate(2, 0, 'y', 0, 'z')])
  })

  it('compares keys as parsed: an escape and its character are one key', () => {
    expect(refusal('{"a":1,"\\u0061":2}')).toEqual([duplicate('a')])
    expect(refusal('{"q\\"":1,"q\\u0022":2,"\\\\":3,"\\u005c":4}')).toEqual([duplicate('q"'), duplicate('\\')])
    expect(refusal('{"é":1,"\\u00e9":2}')).toEqual([duplicate('é')])
  })

  it('lets through the same key in different objects, keys as values, and keys that differ', () => {
    expect(parseJsonText('[{},"a",{"a":{}},"a",[],"a"]')).toEqual([{}, 'a', { a: {} }, 'a', [], 'a'])
    expect(parseJsonText('{"a":{"a":"a"},"b":[{"a":1},{"a":2}],"c":"a","A":1,"a ":1}')).toMatchObject({ c: 'a' })
    expect(parseJsonText('{"a":"\\",\\"a\\":1","b":["a","a"]}')).toEqual({ a: '","a":1', b: ['a', 'a'] })
  })

  it(`lists at most ${MAX_DETAIL_ITEMS}`, () => {
    const text = `{${Array.from({ length: 50 }, (_, i) => `"k${i}":0,"k${i}":1`).join(',')}}`
    expect(refusal(text)).toEqual(Array.from({ length: MAX_DETAIL_ITEMS }, (_, i) => duplicate(`k${i}`)))
  })

  it('agrees with a reference over generated bodies', () => {
    // A JSON value whose objects are lists of entries, so a key may come twice; keys from a
    // small alphabet, so that happens often.
    type Value = number | string | Value[] | { entries: [string, Value][] }
    const { value } = fc.letrec<{ value: Value }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.integer(),
        fc.constantFrom('a', '{', '"a":', '\\', ','),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.record({ entries: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'é', '"', '\\'), tie('value')), { maxLength: 5 }) }),
      ),
    }))
    // Each character of a key written as itself (escaped when JSON needs it) or as \uXXXX.
    const write = (v: Value, escapes: boolean[], n = { i: 0 }): string => {
      if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v)
      if (Array.isArray(v)) return `[${v.map((item) => write(item, escapes, n)).join(',')}]`
      const key = (k: string) => (escapes[n.i++ % escapes.length] ? `"\\u${k.charCodeAt(0).toString(16).padStart(4, '0')}"` : JSON.stringify(k))
      return `{${v.entries.map(([k, item]) => `${key(k)} : ${write(item, escapes, n)}`).join(', ')}}`
    }
    const reference = (v: Value, path: (string | number)[] = [], out: (string | number)[][] = []) => {
      if (Array.isArray(v)) v.forEach((item, i) => reference(item, [...path, i], out))
      else if (typeof v === 'object') {
        const seen = new Map<string, number>()
        for (const [k, item] of v.entries) {
          seen.set(k, (seen.get(k) ?? 0) + 1)
          if (seen.get(k) === 2) out.push([...path, k])
          reference(item, [...path, k], out)
        }
      }
      return out
    }
    fc.assert(
      fc.property(value, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (v, escapes) => {
        const text = write(v, escapes)
        expect(duplicateKeys(text)).toEqual(reference(v).slice(0, MAX_DETAIL_ITEMS))
        // parseJsonText scans for duplicates only when the parsed value has fewer keys than the text.
        let refused = false
        try {
          parseJsonText(text)
        } catch (error) {
          refused = error instanceof AppError
        }
        expect(refused).toBe(reference(v).length > 0)
      }),
      { numRuns: 1000 },
    )
  })
})
