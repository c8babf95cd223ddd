import type { AuthContext, Principal } from '../../../core/auth.ts'
import { type AddressCheck, assertAddressAllowed } from './allowed-addresses.ts'

/**
 * `auth`, refusing a verified caller whose client's allow-list does not hold `clientIp`: every
 * authenticated call of either face (REST, GraphQL over HTTP, an event stream, a GraphQL
 * WebSocket's `connection_init`) obtains its caller here, so each is checked once, from memory.
 */
export function guardAddress(auth: AuthContext, services: AddressCheck, clientIp: string): AuthContext {
  const verify = auth.principal.bind(auth)
  let checked: Promise<Principal> | undefined
  auth.principal = () =>
    (checked ??= verify().then((principal) => {
      assertAddressAllowed(services, { clientId: principal.clientId, tenantId: principal.tenantId }, clientIp, 'call')
      return principal
    }))
  return auth
}
