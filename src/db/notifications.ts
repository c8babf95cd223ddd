import pg from 'pg'
import type { Logger } from 'pino'

export interface NotificationHandlers {
  /** A notification's payload, as sent. */
  notification: (payload: string) => void
  /**
   * The connection is listening, after the first connect or after a reconnect: notifications sent
   * while it was down are lost, so whoever depends on them catches up here.
   */
  listening: () => void
}

export interface NotificationListener {
  close: () => Promise<void>
}

const RETRY_MIN_MS = 200
const RETRY_MAX_MS = 5000

/**
 * `LISTEN`s on `channel` over a connection of its own (a pooled one would be handed to other
 * statements), reconnecting with a growing pause when the database goes away. Notifications are
 * wake-ups only: whoever listens reads the state they point at, so one lost with the connection
 * costs a catch-up, never data (docs/events.md).
 */
export function listenForNotifications(
  connectionString: string,
  channel: string,
  handlers: NotificationHandlers,
  logger: Pick<Logger, 'warn'>,
): NotificationListener {
  let closed = false
  let client: pg.Client | undefined
  let retryMs = RETRY_MIN_MS
  let retryTimer: NodeJS.Timeout | undefined

  const connect = async () => {
    if (closed) return
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 })
    client = next
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notification(message.payload ?? '')
    })
    next.on('error', (err) => {
      logger.warn({ err }, 'event notification connection lost')
      retry(next)
    })
    next.on('end', () => retry(next))
    try {
      await next.connect()
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      retryMs = RETRY_MIN_MS
      handlers.listening()
    } catch (err) {
      if (!closed) logger.warn({ err }, 'could not listen for event notifications; retrying')
      retry(next)
    }
  }

  const retry = (failed: pg.Client) => {
    if (closed || client !== failed || retryTimer) return
    client = undefined
    failed.end().catch(() => {})
    retryTimer = setTimeout(() => {
      retryTimer = undefined
      void connect()
    }, retryMs)
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
  }

  void connect()
  return {
    close: async () => {
      closed = true
      clearTimeout(retryTimer)
      const current = client
      client = undefined
      await current?.end().catch(() => {})
    },
  }
}
