import type { ResultOf } from '@graphql-typed-document-node/core'
import { createClient, type SubscribePayload } from 'graphql-ws'
import { WebSocket } from 'ws'

import { documentIdOf, type GraphQLFailure, GraphQLRequestError } from './client.ts'
import { OrderEventsDocument } from './operations.ts'

export type OrderEvent = ResultOf<typeof OrderEventsDocument>['orderEvents']

/**
 * Follows the tenant's `orderEvents` over WebSocket (graphql-transport-ws, the protocol Apollo and
 * urql speak) from after `after` until `until` accepts an event, which it returns. The token goes
 * in `connectionParams.authorization`; the document by its id, with the empty `query` the protocol
 * requires. Gives up after `timeoutMs`.
 */
export async function followOrderEvents(
  baseUrl: string,
  token: () => string,
  after: string,
  until: (event: OrderEvent) => boolean,
  timeoutMs = 10_000,
): Promise<OrderEvent> {
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    // Read at each (re)connection: a reconnect after the token expired (close 4403) sends the new one.
    connectionParams: () => ({ authorization: `Bearer ${token()}` }),
    retryAttempts: 0,
  })
  const payload = { query: '', documentId: documentIdOf(OrderEventsDocument), variables: { after } } as SubscribePayload
  const events = client.iterate<ResultOf<typeof OrderEventsDocument>>(payload)
  const timer = setTimeout(() => void events.return?.(), timeoutMs)
  try {
    for await (const result of events) {
      if (result.errors?.length) throw new GraphQLRequestError(result.errors as unknown as GraphQLFailure[])
      if (result.data && until(result.data.orderEvents)) return result.data.orderEvents
    }
    throw new Error(`orderEvents ended before the event awaited (or ${timeoutMs} ms passed)`)
  } finally {
    clearTimeout(timer)
    await events.return?.()
    await client.dispose()
  }
}
