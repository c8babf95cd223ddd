import { type Logger, pino } from 'pino'

/** The fields of the one line logged per request, in the order they are written. */
export interface RequestLine {
  requestId: string
  method: string
  route: string
  operation?: string
  status: number
  ms: number
  ip: string
  sub?: string
}

export type WriteRequestLine = (line: RequestLine) => void

const INFO = 30
const ERROR = 50

/**
 * Writes the per-request line to the logger's own destination, in exactly the shape pino gives
 * `logger.info(line, 'request')` (level, time, bindings, fields, msg). pino's generic serialiser
 * walks and escapes every key of every object; for this fixed, credential-free line of known
 * types that walk cost several times the formatting below, on every request. The line's level
 * (error for a 5xx, else info) still follows the logger's level.
 */
export function requestLineWriter(logger: Logger): WriteRequestLine {
  // pino.symbols is pino's published way in for integrations; its types do not index a Logger.
  const internals = logger as unknown as Record<symbol, unknown>
  const stream = internals[pino.symbols.streamSym] as { write: (chunk: string) => unknown }
  const time = internals[pino.symbols.timeSym] as () => string
  const bindings = internals[pino.symbols.chindingsSym] as string
  const end = internals[pino.symbols.endSym] as string
  const levelPrefix = internals[pino.symbols.lsCacheSym] as Record<number, string>
  const message = `,${JSON.stringify(internals[pino.symbols.messageKeySym])}:"request"`
  return (line) => {
    const level = line.status >= 500 ? ERROR : INFO
    if (level < logger.levelVal) return
    stream.write(
      `${levelPrefix[level]}${time()}${bindings},"requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)}` +
        `${line.operation === undefined ? '' : `,"operation":${JSON.stringify(line.operation)}`},"status":${line.status},"ms":${line.ms},"ip":${JSON.stringify(line.ip)}` +
        `${line.sub === undefined ? '' : `,"sub":${JSON.stringify(line.sub)}`}${message}${end}`,
    )
  }
}
