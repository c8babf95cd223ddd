import { buildSchema, type ExecutionArgs, parse } from 'graphql'
import { describe, expect, it } from 'vitest'

import { CompiledQueries, fieldsAsExecuted } from './compiled-queries.ts'

describe('fieldsAsExecuted', () => {
  it('counts every field of the operation, fragments expanded where they are spread', () => {
    const document = parse('query A { a { b c } ...F ...F } query B { x } fragment F on Query { d { e } }')
    expect(fieldsAsExecuted(document, 'A', 100)).toBe(3 + 2 * 2)
    expect(fieldsAsExecuted(document, 'B', 100)).toBe(1)
    expect(fieldsAsExecuted(parse('{ a { ... on A { b } } }'), undefined, 100)).toBe(2)
  })

  it('stops just past the bound, however far the document expands', () => {
    // Each fragment spreads the next twice: 2^20 fields as executed.
    const fragments = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Q { ...F${i + 1} ...F${i + 1} }`).join(' ')
    const document = parse(`{ ...F0 } ${fragments} fragment F20 on Q { leaf }`)
    expect(fieldsAsExecuted(document, undefined, 50)).toBe(51)
    // A cycle (refused by validation) ends the walk too.
    expect(fieldsAsExecuted(parse('{ ...F } fragment F on Q { a ...F }'), undefined, 1000)).toBe(1001)
  })
})

describe('CompiledQueries', () => {
  const schema = buildSchema('type Query { n(x: Int!): Int! items: [Item!]! } type Item { id: ID! }')
  // Resolvers on the schema, as Pothos puts them (graphql-jit does not call functions of the root value).
  const fields = schema.getQueryType()!.getFields()
  fields.n!.resolve = (_root, { x }: { x: number }) => x * 2
  fields.items!.resolve = () => [{ id: 'a' }, { id: 'b' }]
  const rootValue = {}

  it('runs a document under graphql-js twice, then compiled, with the same results', async () => {
    const runs: boolean[] = []
    const queries = new CompiledQueries((compiled) => runs.push(compiled))
    const args = (x: number): ExecutionArgs => ({ schema, document, rootValue, variableValues: { x } })
    const document = parse('query Q($x: Int!) { n(x: $x) items { id } }')
    const results = []
    for (let x = 1; x <= 4; x++) results.push(await queries.execute(args(x)))
    expect(runs).toEqual([false, false, true, true])
    expect(results).toEqual([1, 2, 3, 4].map((x) => ({ data: { n: 2 * x, items: [{ id: 'a' }, { id: 'b' }] } })))
  })
})
