import type { DpopRequest } from '../core/auth.ts'
import type { RequestContext, RequestState, ResponseWatch, Services } from '../core/context.ts'
import { guardAddress } from '../modules/auth/addresses/address-guard.ts'
import { countedAuthContext } from '../rate-limits/counted-auth-context.ts'

export function createRequestContext(
  services: Services,
  state: RequestState,
  authorization: string | null | undefined,
  response?: ResponseWatch,
  dpop?: DpopRequest,
): RequestContext {
  return {
    ...(response ? { response } : {}),
    dpop,
    requestId: state.id,
    clientIp: state.clientIp,
    services,
    auth: guardAddress(countedAuthContext(services, state, authorization, dpop), services, state.clientIp),
    state,
  }
}
