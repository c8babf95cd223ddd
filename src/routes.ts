import type { Route } from './rest.ts'
import { systemRoutes } from './modules/system/routes.ts'
import { authRoutes } from './modules/auth/routes.ts'

/** Every REST route, by module. */
export const routes: Route[] = [...systemRoutes, ...authRoutes]
