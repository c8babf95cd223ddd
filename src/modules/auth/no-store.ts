import type { Plugin } from 'graphql-yoga'

/** RFC 6749 §5.1: a response carrying tokens must not be stored by any cache. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' }

const carryingTokens = new WeakSet<Request>()

/** Marks a GraphQL request whose response carries tokens (login, refresh). */
export function markCarriesTokens(request: Request): void {
  carryingTokens.add(request)
}

export function noStorePlugin(): Plugin {
  return {
    onResponse({ request, response }) {
      if (!carryingTokens.has(request)) return
      for (const [name, value] of Object.entries(NO_STORE_HEADERS)) response.headers.set(name, value)
    },
  }
}
