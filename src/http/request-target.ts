import type { IncomingMessage, ServerResponse } from 'node:http'

import { AppError, restErrorBody } from '../core/errors.ts'

/**
 * Checks what Node's HTTP parser lets through but the Fetch layer cannot turn into a URL: a Host
 * header that is no host (`a b`, `[::1`, a port over 65535) or a request target that is neither a
 * path nor an absolute http(s) URL. RFC 9112 §3.2 answers those with 400; an absolute-form target
 * is reduced to its path, as servers must accept it. Returns the request's URL, or undefined once
 * it has answered.
 */
export function checkRequestTarget(req: IncomingMessage, res: ServerResponse): URL | undefined {
  const target = req.url ?? '/'
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target)
      req.url = `${url.pathname}${url.search}`
    } catch {
      return refuse(res, 'Invalid request target')
    }
  } else if (!target.startsWith('/')) {
    return refuse(res, 'Invalid request target')
  }
  const host = req.headers.host
  if (host !== undefined && (host === '' || /[\s/?#@]/.test(host))) return refuse(res, 'Invalid Host header')
  // Appended, not resolved: a target of `//x` is the path `//x`, not the host `x`.
  try {
    return new URL(`http://${host ?? 'localhost'}${req.url}`)
  } catch {
    return refuse(res, host === undefined ? 'Invalid request target' : 'Invalid Host header')
  }
}

function refuse(res: ServerResponse, message: string): undefined {
  const body = JSON.stringify(restErrorBody(new AppError('bad_request', message)))
  res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' })
  res.end(body)
  return undefined
}
