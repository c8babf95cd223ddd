import { createServer } from 'node:http'

/**
 * The yardstick: a raw node:http server answering every request with the same precomputed bytes
 * the service returns for the symbols list. No auth, no routing, no JSON work.
 */
const body = Buffer.from(process.env.BASELINE_BODY_B64 ?? '', 'base64')
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  res.end(body)
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
