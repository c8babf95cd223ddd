import { lexicographicSortSchema } from 'graphql'
import { builder } from './builder.ts'
import './scalars.ts'
import './modules/system/health.graphql.ts'
import './modules/auth/auth.graphql.ts'
import './modules/exchange/symbols.graphql.ts'
import './modules/exchange/orders.graphql.ts'
import './modules/users/users.graphql.ts'

/** Importing this module builds the schema and does nothing else (codegen imports it). */
export const schema = lexicographicSortSchema(builder.toSchema())
