import type { Route } from './rest.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { exchangeRoutes } from './modules/exchange/routes.ts'
import { systemRoutes } from './modules/system/routes.ts'
import { userRoutes } from './modules/users/routes.ts'

/** Every REST route, by module. */
export const routes: Route[] = [...systemRoutes, ...authRoutes, ...exchangeRoutes, ...userRoutes]
