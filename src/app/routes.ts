import type { DocumentedRoute } from '../http/router.ts'
import { auditRoutes } from '../modules/audit/audit.rest.ts'
import { clientIdentityRoutes } from '../modules/auth/clients/client-identity.rest.ts'
import { keyRoutes } from '../modules/auth/keys/keys.rest.ts'
import { sessionRoutes } from '../modules/auth/sessions/sessions.rest.ts'
import { accountRoutes } from '../modules/exchange/accounts/accounts.rest.ts'
import { statementRoutes } from '../modules/exchange/accounts/statements.rest.ts'
import { cancelAfterRoutes } from '../modules/exchange/cancel-after/cancel-after.rest.ts'
import { eventRoutes } from '../modules/exchange/events/events.rest.ts'
import { fillRoutes } from '../modules/exchange/fills/fills.rest.ts'
import { marketRoutes } from '../modules/exchange/market/market.rest.ts'
import { marketDataRoutes } from '../modules/exchange/market-data/market-data.rest.ts'
import { byClientIdRoutes } from '../modules/exchange/orders/by-client-id.rest.ts'
import { orderRoutes } from '../modules/exchange/orders/orders.rest.ts'
import { symbolRoutes } from '../modules/exchange/symbols/symbols.rest.ts'
import { webhookRoutes } from '../modules/exchange/webhooks/webhooks.rest.ts'
import { withdrawalRoutes } from '../modules/exchange/withdrawals/withdrawals.rest.ts'
import { healthRoutes } from '../modules/system/health/health.rest.ts'
import { userRoutes } from '../modules/tenants/users/users.rest.ts'
import { docsPageRoutes } from './docs-page.ts'
import { graphiqlAssetRoutes } from './graphiql.ts'
import { openApiRoutes } from './openapi.ts'

/**
 * Every REST route, each from the `*.rest.ts` file of its resource, each describing itself (`doc`):
 * the OpenAPI document is built from this table (docs/contracts.md).
 */
export const routes: DocumentedRoute[] = [
  ...healthRoutes,
  ...sessionRoutes,
  ...clientIdentityRoutes,
  ...keyRoutes,
  ...symbolRoutes,
  ...marketRoutes,
  ...marketDataRoutes,
  ...orderRoutes,
  ...byClientIdRoutes,
  ...cancelAfterRoutes,
  ...fillRoutes,
  ...accountRoutes,
  ...withdrawalRoutes,
  ...statementRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...userRoutes,
  ...auditRoutes,
  ...openApiRoutes(() => routes),
  ...docsPageRoutes,
  ...graphiqlAssetRoutes,
]

/** The routes a server with this configuration serves: all, less the reference page when `DOCS=false` and GraphiQL's assets when `GRAPHIQL=false`. */
export function servedRoutes(config: { docs: boolean; graphiql: boolean }): readonly DocumentedRoute[] {
  return routes.filter((route) => (config.docs || !docsPageRoutes.includes(route)) && (config.graphiql || !graphiqlAssetRoutes.includes(route)))
}
