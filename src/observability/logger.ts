import { type Logger, pino } from 'pino'

import type { Config } from '../core/config.ts'

/** Paths that may hold credentials; pino replaces them before anything is written. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'authorization',
  'client_secret',
  'clientSecret',
  'refresh_token',
  'refreshToken',
  'password',
  'tokens',
  'token',
  'access',
  'refresh',
  '*.client_secret',
  '*.clientSecret',
  '*.refresh_token',
  '*.refreshToken',
  '*.password',
  '*.tokens',
  '*.token',
  '*.authorization',
]

/** How long a buffered log line may wait before it is written. */
const LOG_FLUSH_INTERVAL_MS = 200
/** Lines are handed on in chunks of about this many characters. */
const LOG_CHUNK_CHARS = 8192

/**
 * Standard output for a long-running process: lines are buffered and written in batches (one
 * `write` per ~8 KiB instead of one per request, a large share of a cached request's CPU), at
 * least every 200 ms, and synchronously when the process exits. The lines are gathered here
 * rather than in pino's SonicBoom: SonicBoom measures the UTF-8 length of its whole pending
 * buffer on every write, which grows with the buffer.
 */
export function bufferedStdout(): { destination: NodeJS.WritableStream; flushSync: () => void } {
  const sink = pino.destination({ dest: 1, sync: false })
  let pending: string[] = []
  let pendingChars = 0
  const handOn = () => {
    if (pending.length === 0) return
    const chunk = pending.join('')
    pending = []
    pendingChars = 0
    sink.write(chunk)
  }
  const flushSync = () => {
    try {
      handOn()
      sink.flushSync()
    } catch {
      // Nothing more can be said about a log that cannot be written.
    }
  }
  setInterval(handOn, LOG_FLUSH_INTERVAL_MS).unref()
  process.once('exit', flushSync)
  const destination = {
    write(line: string) {
      pending.push(line)
      pendingChars += line.length
      if (pendingChars >= LOG_CHUNK_CHARS) handOn()
      return true
    },
  }
  return { destination: destination as unknown as NodeJS.WritableStream, flushSync }
}

/**
 * pino's `isoTime`, formatted once per millisecond rather than once per line: a busy server
 * writes many lines in the same millisecond.
 */
export function cachedIsoTime(): () => string {
  let lastMs = -1
  let text = ''
  return () => {
    const now = Date.now()
    if (now !== lastMs) {
      lastMs = now
      text = `,"time":"${new Date(now).toISOString()}"`
    }
    return text
  }
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'exchange-api' },
      timestamp: cachedIsoTime(),
    },
    destination as never,
  )
}
