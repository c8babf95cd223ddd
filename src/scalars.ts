import { GraphQLError, Kind } from 'graphql'
import { builder } from './builder.ts'

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/

builder.scalarType('Decimal', {
  description: 'An exact decimal number, carried as a string (never a float).',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !DECIMAL.test(value)) throw new GraphQLError('Decimal must be a string such as "12.50"')
    return value
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING || !DECIMAL.test(node.value)) throw new GraphQLError('Decimal must be a string such as "12.50"')
    return node.value
  },
})

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time. Output: UTC without zone, microsecond precision. Input: with a zone (`Z` or `±hh:mm`).',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError('DateTime must be a string')
    return value
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string')
    return node.value
  },
})

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
})
