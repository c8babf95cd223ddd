/** One Server-Sent Events message as a client parses it; `comment` holds a `: …` line's text. */
export interface SseMessage {
  id?: string
  event?: string
  data?: string
  comment?: string
}

export interface SseClient {
  status: number
  headers: Headers
  /** Every message and comment received so far, in order. */
  received: SseMessage[]
  /** Waits until `count` messages (comments not counted) have arrived in all; returns them. */
  messages: (count: number, timeoutMs?: number) => Promise<SseMessage[]>
  /** Waits until a message matching `test` has arrived. */
  waitFor: (test: (message: SseMessage) => boolean, timeoutMs?: number) => Promise<SseMessage>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  close: () => void
}

/** Opens an SSE stream with `fetch` (the caller's headers, e.g. `authorization`, `last-event-id`) and parses it as it arrives. */
export async function openSse(url: string, init: { headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<SseClient> {
  const abort = new AbortController()
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'text/event-stream', ...init.headers },
    body: init.body,
    signal: abort.signal,
  })
  const received: SseMessage[] = []
  const waiters = new Set<() => void>()
  const notify = () => waiters.forEach((waiter) => waiter())
  let done = false
  const ended = (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    let current: SseMessage = {}
    try {
      if (!response.body || !/^text\/event-stream/.test(response.headers.get('content-type') ?? '')) return
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true })
        let newline: number
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline)
          buffer = buffer.slice(newline + 1)
          if (line === '') {
            if (Object.keys(current).length) received.push(current)
            current = {}
            notify()
          } else if (line.startsWith(':')) received.push({ comment: line.slice(1).trim() })
          else {
            const colon = line.indexOf(':')
            const field = colon < 0 ? line : line.slice(0, colon)
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
            if (field === 'id' || field === 'event' || field === 'data') current[field] = value
          }
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true
      notify()
    }
  })()
  const wait = <T>(probe: () => T | undefined, timeoutMs: number, what: () => string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = probe()
        if (value !== undefined) {
          cleanup()
          resolve(value)
        } else if (done) {
          cleanup()
          reject(new Error(`stream ended before ${what()}`))
        }
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`timed out waiting for ${what()}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  const messagesOnly = () => received.filter((m) => m.comment === undefined)
  return {
    status: response.status,
    headers: response.headers,
    received,
    messages: (count, timeoutMs = 5000) =>
      wait(
        () => {
          const all = messagesOnly()
          return all.length >= count ? all.slice(0, count) : undefined
        },
        timeoutMs,
        () => `${count} messages (got ${JSON.stringify(messagesOnly())})`,
      ),
    waitFor: (test, timeoutMs = 5000) =>
      wait(
        () => received.find(test),
        timeoutMs,
        () => `a matching message (got ${JSON.stringify(received)})`,
      ),
    ended,
    close: () => abort.abort(),
  }
}
