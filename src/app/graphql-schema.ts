import '../graphql/scalars.ts'
import '../modules/system/health/health.graphql.ts'
import '../modules/auth/sessions/sessions.graphql.ts'
import '../modules/auth/clients/client-identity.graphql.ts'
import '../modules/exchange/symbols/symbols.graphql.ts'
import '../modules/exchange/orders/orders.graphql.ts'
import '../modules/exchange/orders/by-client-id.graphql.ts'
import '../modules/exchange/cancel-after/cancel-after.graphql.ts'
import '../modules/exchange/fills/fills.graphql.ts'
import '../modules/exchange/market/market.graphql.ts'
import '../modules/exchange/market-data/market-data.graphql.ts'
import '../modules/exchange/events/events.graphql.ts'
import '../modules/exchange/accounts/accounts.graphql.ts'
import '../modules/exchange/withdrawals/withdrawals.graphql.ts'
import '../modules/exchange/webhooks/webhooks.graphql.ts'
import '../modules/exchange/accounts/statements.graphql.ts'
import '../modules/tenants/users/users.graphql.ts'
import '../modules/audit/audit.graphql.ts'

import { lexicographicSortSchema } from 'graphql'

import { builder } from '../graphql/builder.ts'

/** Importing this module builds the schema and does nothing else (codegen imports it). */
export const schema = lexicographicSortSchema(builder.toSchema())
