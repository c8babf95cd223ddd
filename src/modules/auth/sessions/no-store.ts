import type { Plugin } from 'graphql-yoga'

import type { RequestState } from '../../../core/context.ts'
import type { RequestStates } from '../../../http/request-state.ts'

/** RFC 6749 §5.1: a response carrying tokens must not be stored by any cache. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' }

/** Marks a GraphQL request whose response carries tokens (login, refresh). */
export function markCarriesTokens(state: RequestState): void {
  state.carriesTokens = true
}

export function noStorePlugin(states: RequestStates): Plugin {
  return {
    onResponse({ request, response }) {
      if (!states.get(request).carriesTokens) return
      for (const [name, value] of Object.entries(NO_STORE_HEADERS)) response.headers.set(name, value)
    },
  }
}
