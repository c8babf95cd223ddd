import type { Route } from '../http/router.ts'
import { clientIdentityRoutes } from '../modules/auth/clients/client-identity.rest.ts'
import { keyRoutes } from '../modules/auth/keys/keys.rest.ts'
import { sessionRoutes } from '../modules/auth/sessions/sessions.rest.ts'
import { fillRoutes } from '../modules/exchange/fills/fills.rest.ts'
import { marketRoutes } from '../modules/exchange/market/market.rest.ts'
import { orderRoutes } from '../modules/exchange/orders/orders.rest.ts'
import { symbolRoutes } from '../modules/exchange/symbols/symbols.rest.ts'
import { healthRoutes } from '../modules/system/health/health.rest.ts'
import { userRoutes } from '../modules/users/users/users.rest.ts'

/** Every REST route, each from the `*.rest.ts` file of its resource. */
export const routes: Route[] = [
  ...healthRoutes,
  ...sessionRoutes,
  ...clientIdentityRoutes,
  ...keyRoutes,
  ...symbolRoutes,
  ...marketRoutes,
  ...orderRoutes,
  ...fillRoutes,
  ...userRoutes,
]
