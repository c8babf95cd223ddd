import fc from 'fast-check'
import { buildSchema, executeSync, type ExecutionResult, parse, specifiedRules, validate } from 'graphql'
import { describe, expect, it } from 'vitest'

import { operationLimitsRule } from '../limits.ts'
import { aliasedKeys, documentForm, onlyTopLevel, renameKeys } from './document-forms.ts'

const form = (text: string) => documentForm(text, 5000)

describe('documentForm', () => {
  it('is one for documents that differ only in alias names, whitespace, commas and comments', () => {
    const a = form('{ s1: symbols(limit: 100) { total items { symbol } } }')!
    const b = form('# a dashboard\n{\n  s2: symbols(limit: 100) {\n    total,\n    items { symbol }\n  }\n}')!
    expect(b.key).toBe(a.key)
    expect([a.aliases, b.aliases]).toEqual([['s1'], ['s2']])
  })

  it('is another for another field, argument, value, operation or directive', () => {
    const base = form('query Q($n: Int) { s: symbols(limit: 100, offset: $n) { total } }')!.key
    for (const other of [
      'query Q($n: Int) { s: symbol(limit: 100, offset: $n) { total } }',
      'query Q($n: Int) { s: symbols(limit: 99, offset: $n) { total } }',
      'query Q($n: Int) { s: symbols(limit: 100, offset: $n) { offset } }',
      'query R($n: Int) { s: symbols(limit: 100, offset: $n) { total } }',
      'query Q($n: Int = 1) { s: symbols(limit: 100, offset: $n) { total } }',
      'query Q($n: Int) { s: symbols(limit: 100, offset: $n) @skip(if: false) { total } }',
      'query Q($n: Int) { symbols(limit: 100, offset: $n) { total } }',
      'query Q($n: Int) { s: symbols(limit: 100, offset: $n) { total } } fragment F on Query { x }',
    ])
      expect(form(other)!.key).not.toBe(base)
    // A string and a block string of the same value, and strings that look like other tokens.
    expect(form('{ a(x: "1") }')!.key).not.toBe(form('{ a(x: """1""") }')!.key)
    expect(form('{ a(x: "1") }')!.key).not.toBe(form('{ a(x: 1) }')!.key)
    expect(form('{ a(x: "b c") }')!.key).not.toBe(form('{ a(x: "b" c) }')!.key)
  })

  it('keeps which aliases are equal, and an alias that names anything else as written', () => {
    // Two fields under one key (merged) are not two under two keys.
    expect(form('{ a: x a: x }')!.key).not.toBe(form('{ a: x b: x }')!.key)
    expect(form('{ a: x a: x }')!.key).toBe(form('{ b: x b: x }')!.key)
    // `y: x` beside the field `y` shares its key; `z: x` does not.
    expect(form('{ y: x y }')!.key).not.toBe(form('{ z: x y }')!.key)
    expect(form('{ y: x y }')!.aliases).toEqual([])
    // Colons inside arguments, variable definitions and object values are not aliases.
    expect(form('query Q($v: In = { a: 1 }) @d(e: 2) { f(g: { h: [{ i: 3 }] }) }')!.aliases).toEqual([])
  })

  it('is undefined for text that does not lex, or has too many tokens', () => {
    expect(form('{ a ^ }')).toBeUndefined()
    expect(form('{ "unterminated }')).toBeUndefined()
    expect(documentForm('{ a b c }', 4)).toBeUndefined()
    expect(documentForm('{ a b c }', 5)).toBeDefined()
  })
})

describe('renameKeys', () => {
  it('renames the keys numbered aliases wrote, below lists and fragments, and nothing in scalar values', () => {
    const document = parse(`query Q { t: a { p: b { q: c  j } ...F } }  fragment F on A { r: d }`)
    const from = form('query Q { t: a { p: b { q: c  j } ...F } }  fragment F on A { r: d }')!
    const to = form('query Q { T: a { P: b { R: c  j } ...F } }  fragment F on A { __proto__: d }')!
    expect(to.key).toBe(from.key)
    const keys = aliasedKeys(document, 'Q', from.aliases)!
    expect(onlyTopLevel(keys)).toBe(false)
    const data = {
      t: {
        p: [
          { q: 1, j: { q: 'scalar' } },
          { q: 2, j: null },
        ],
        r: 3,
      },
    }
    expect(JSON.stringify(renameKeys(data, keys, to.aliases))).toBe('{"T":{"P":[{"R":1,"j":{"q":"scalar"}},{"R":2,"j":null}],"__proto__":3}}')
    expect(onlyTopLevel(aliasedKeys(parse('{ s1: symbols { total } }'), undefined, ['s1'])!)).toBe(true)
  })

  it('maps no more than 20,000 fields, however far fragments spread', () => {
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Q { ...F${i + 1} ...F${i + 1} }`).join(' ')
    expect(aliasedKeys(parse(`{ ...F0 } ${fragments} fragment F20 on Q { a: leaf }`), undefined, ['a'])).toBeUndefined()
    expect(aliasedKeys(parse('{ ...F } fragment F on Q { a ...F }'), undefined, [])).toBeUndefined()
  })
})

// Generated documents over a small schema: whenever two are of one form, validation (graphql-js's
// rules and the service's limits) decides both alike, and a valid one's result renamed is the other's.
const schema = buildSchema(`
  type Query { a: A  b(n: Int): [A]  x: Int  y: String }
  type A { b(n: Int): [A]  x: Int  y: String  j: J }
  scalar J
`)
const objects = (depth: number): Record<string, unknown> => ({
  x: depth,
  y: `y${depth}`,
  j: { x: 'scalar', a: [1] },
  a: depth < 4 ? objects(depth + 1) : null,
  b: depth < 4 ? ({ n }: { n?: number }) => [objects(depth + 1), { ...objects(depth + 1), x: n ?? -1 }] : null,
})
const NAMES = ['a', 'b', 'x', 'y', 'j', 'p', 'q', '__proto__']
// Aliases that name a field stay (or the pair is rarely of one form); others are renamed to names of
// nothing else, or to a field's name, which changes the form.
const RENAMED = ['p', 'q', 'r', '__proto__', 'x', 'y']
const FIELDS = new Set(['a', 'b', 'x', 'y', 'j'])
type Selection = { alias?: string; field: string; n?: number; sub?: Selection[] }
const selections: fc.Arbitrary<Selection[]> = fc.letrec<{ list: Selection[]; one: Selection }>((tie) => ({
  one: fc
    .record(
      {
        alias: fc.constantFrom(...NAMES),
        field: fc.constantFrom('a', 'b', 'x', 'y', 'j'),
        n: fc.integer({ min: 0, max: 3 }),
        sub: fc.option(tie('list'), { nil: undefined, depthSize: 'small' }),
        // Mostly a selection where the field's type needs one, so that many documents are valid.
        misfit: fc.boolean(),
      },
      { requiredKeys: ['field', 'misfit'] },
    )
    .map(({ misfit, sub, ...s }) => ((s.field === 'a' || s.field === 'b') !== (misfit && s.n === 0) ? { ...s, sub: sub ?? [{ field: 'x' }] } : s)),
  list: fc.array(tie('one'), { minLength: 1, maxLength: 3 }),
})).list
const print = (list: Selection[], rename: (alias: string) => string, space: string): string =>
  `{${space}${list
    .map(
      (s) =>
        `${s.alias ? `${rename(s.alias)}:${space}` : ''}${s.field}${s.n !== undefined && s.field === 'b' ? `(n: ${s.n})` : ''}${s.sub ? ` ${print(s.sub, rename, space)}` : ''}`,
    )
    .join(space === ' ' ? ' ' : `,${space}`)}${space}}`
const rules = [...specifiedRules, operationLimitsRule()]
const run = (text: string): ExecutionResult | 'invalid' => {
  const document = parse(text)
  return validate(schema, document, rules).length > 0 ? 'invalid' : executeSync({ schema, document, rootValue: objects(0) })
}

describe('documents of one form', () => {
  it('validate alike, and answer alike but for the renamed keys', () => {
    let sameForm = 0
    let valid = 0
    fc.assert(
      fc.property(selections, fc.func(fc.constantFrom(...RENAMED)), (list, rename) => {
        const text = print(list, (alias) => alias, ' ')
        const other = `# another\n${print(list, (alias) => (FIELDS.has(alias) ? alias : rename(alias)), '\n  ')}`
        const [mine, theirs] = [form(text)!, form(other)!]
        if (mine.key !== theirs.key) return
        sameForm++
        const [result, expected] = [run(text), run(other)]
        expect(result === 'invalid').toBe(expected === 'invalid')
        if (result === 'invalid' || expected === 'invalid') return
        valid++
        const keys = aliasedKeys(parse(text), undefined, mine.aliases)!
        expect(JSON.stringify({ data: renameKeys(result.data, keys, theirs.aliases) })).toBe(JSON.stringify(expected))
      }),
      { numRuns: 1500 },
    )
    // The property was exercised, not skipped: many pairs of one form, valid and not.
    expect(sameForm).toBeGreaterThan(600)
    expect(valid).toBeGreaterThan(200)
    expect(sameForm - valid).toBeGreaterThan(200)
  })
})
