import { lexicographicSortSchema } from 'graphql'
import { builder } from './builder.ts'
import './scalars.ts'
import './modules/system/health.graphql.ts'
import './modules/auth/auth.graphql.ts'

/** Importing this module builds the schema and does nothing else (codegen imports it). */
export const schema = lexicographicSortSchema(builder.toSchema())
