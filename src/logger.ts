import { pino, type Logger } from 'pino'
import type { Config } from './config.ts'

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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'exchange-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination as never,
  )
}
