import { GraphQLError, Kind } from 'graphql'

import { DECIMAL_TEXT } from '../core/decimal.ts'
import { builder } from './builder.ts'

/**
 * Longer text is refused before the pattern runs. graphql-js parses literals while validating, before
 * any resolver or token check, so this bound protects every caller. Longer than any decimal an order
 * accepts, so the operation's own check (`value_error.any_str.max_length`) still reports those.
 */
export const MAX_SCALAR_DECIMAL_LENGTH = 256
const isDecimalText = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_SCALAR_DECIMAL_LENGTH && DECIMAL_TEXT.test(value)

builder.scalarType('Decimal', {
  description: 'An exact decimal number, carried as a string (never a float).',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (!isDecimalText(value)) throw new GraphQLError('Decimal must be a string such as "12.50"')
    return value
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING || !isDecimalText(node.value)) throw new GraphQLError('Decimal must be a string such as "12.50"')
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
