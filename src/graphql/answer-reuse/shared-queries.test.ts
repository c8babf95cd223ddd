import { buildSchema, type DocumentNode, execute, type ExecutionArgs, parse } from 'graphql'
import { envelop, type Plugin } from 'graphql-yoga'
import { describe, expect, it } from 'vitest'

import { SharedQueries } from './shared-queries.ts'

/** A schema whose resolvers count their runs; `orders` fails when asked to. */
function setup() {
  const runs = { orders: 0, other: 0, principal: 0 }
  const schema = buildSchema(/* GraphQL */ `
    type Page {
      items: [String!]!
      limit: Int!
    }
    type Query {
      orders(limit: Int, fail: Boolean): Page!
      other: String!
    }
    type Mutation {
      orders: String!
    }
  `)
  const queryRoot = {
    orders: (args: { limit?: number; fail?: boolean }) => {
      runs.orders++
      if (args.fail) throw new Error('refused')
      return { items: Array.from({ length: args.limit ?? 2 }, (_, i) => `o${i}`), limit: args.limit ?? 2 }
    },
    other: () => String(++runs.other),
  }
  const mutation = { orders: () => String(++runs.orders) }
  // graphql-js's execute, as the engine; the plugin under test after it.
  const engine: Plugin = { onExecute: ({ setExecuteFn }) => setExecuteFn(execute) }
  const documents = new Map<string, DocumentNode>()
  const getEnveloped = envelop({ plugins: [engine, new SharedQueries(['orders']).plugin()] })
  /** Executes `query` as the holder of token `jti` (null: a request without credentials). */
  const run = (query: string, jti: string | null = 'token-a', variableValues?: Record<string, unknown>) => {
    const { execute: exec } = getEnveloped()
    // Yoga's parser cache hands every request of one text the same document.
    const document = documents.get(query) ?? parse(query)
    documents.set(query, document)
    const rootValue = document.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'mutation') ? mutation : queryRoot
    const contextValue = {
      auth: {
        hasCredentials: jti !== null,
        principal: async () => {
          runs.principal++
          return { jti }
        },
      },
    }
    return exec({ schema, document, rootValue, contextValue, variableValues } as ExecutionArgs) as Promise<any>
  }
  return { runs, run }
}

const ORDERS = '{ orders(limit: 3) { items limit } }'

describe('SharedQueries.plugin', () => {
  it('executes identical concurrent queries of one token once, each request authenticated', async () => {
    const { runs, run } = setup()
    const results = await Promise.all(Array.from({ length: 10 }, () => run(ORDERS)))
    expect(runs.orders).toBe(1)
    expect(runs.principal).toBe(10)
    for (const result of results) expect(result.stringify()).toBe(JSON.stringify({ data: { orders: { items: ['o0', 'o1', 'o2'], limit: 3 } } }))
    expect(new Set(results).size).toBe(1)
  })

  it('shares nothing between tokens, variables, or queries that did not overlap', async () => {
    const { runs, run } = setup()
    const query = 'query Page($limit: Int) { orders(limit: $limit) { items } }'
    await Promise.all([run(query, 'token-a', { limit: 1 }), run(query, 'token-b', { limit: 1 }), run(query, 'token-a', { limit: 2 })])
    expect(runs.orders).toBe(3)
    await run(ORDERS)
    await run(ORDERS)
    expect(runs.orders).toBe(5)
  })

  it('leaves alone other root fields, root directives, mutations, anonymous callers and variables that do not coerce', async () => {
    const { runs, run } = setup()
    const alone = async (query: string, jti: string | null = 'token-a', variables?: Record<string, unknown>) => {
      const before = runs.orders + runs.other
      await Promise.all([run(query, jti, variables), run(query, jti, variables)])
      return runs.orders + runs.other - before
    }
    expect(await alone('{ orders { limit } other }')).toBe(4)
    expect(await alone('query { orders @include(if: true) { limit } }')).toBe(2)
    expect(await alone('mutation { orders }')).toBe(2)
    expect(await alone(ORDERS, null)).toBe(2)
    const principals = runs.principal
    expect(await alone('query Page($limit: Int) { orders(limit: $limit) { limit } }', 'token-a', { limit: 'many' })).toBe(0)
    expect(runs.principal).toBe(principals)
  })

  it('lets every request that waited for a result with errors execute on its own', async () => {
    const { runs, run } = setup()
    const results = await Promise.all(Array.from({ length: 4 }, () => run('{ orders(fail: true) { limit } }')))
    // One shared attempt, then each request's own execution.
    expect(runs.orders).toBe(5)
    for (const result of results) expect(result.errors[0].message).toBe('refused')
  })
})
