import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'

import { z } from 'zod'

import { notFound } from '../core/errors.ts'
import { errorBodies } from '../http/api-contract.ts'
import { RawBody } from '../http/responses.ts'
import type { DocumentedRoute } from '../http/router.ts'

/**
 * `GET /docs`: the API reference page for banks, Swagger UI over `/openapi.json`, served from the
 * npm-installed `swagger-ui-dist` so the page works with no internet: every request it makes goes
 * to this service's origin (docs/contracts.md). `DOCS=false` leaves these routes out.
 */
export const DOCS_PATH = '/docs'
const ASSETS = `${DOCS_PATH}/assets`

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

// Same-origin only: the browser itself refuses anything else the page might try to load.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Exchange API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/docs.js"></script>
</body>
</html>
`

// No validator badge (it would call validator.swagger.io); requests of "Try it out" go to this origin.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  persistAuthorization: false,
  displayOperationId: true,
})
`

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'

/** The assets the page loads, each read once. */
const assets: Record<string, { type: string; load: () => Promise<Buffer> }> = {
  'swagger-ui-bundle.js': { type: JS, load: () => readFile(path.join(swaggerDir, 'swagger-ui-bundle.js')) },
  // Its sourceMappingURL names a map not served: dropped so a browser's developer tools do not ask for it.
  'swagger-ui.css': {
    type: CSS,
    load: async () => Buffer.from((await readFile(path.join(swaggerDir, 'swagger-ui.css'), 'utf8')).replace(/\/\*# sourceMappingURL=.*?\*\/\s*$/, '')),
  },
  'docs.js': { type: JS, load: () => Promise.resolve(Buffer.from(INIT)) },
}
const loaded = new Map<string, Promise<RawBody>>()

function asset(name: string): Promise<RawBody> {
  const entry = Object.hasOwn(assets, name) ? assets[name] : undefined
  if (!entry) throw notFound(`No asset ${name.slice(0, 64)}`)
  let body = loaded.get(name)
  if (!body) {
    body = entry.load().then((bytes) => new RawBody(bytes, entry.type))
    body.catch(() => loaded.delete(name))
    loaded.set(name, body)
  }
  return body
}

const pageBody = new RawBody(Buffer.from(PAGE), 'text/html; charset=utf-8')
const SECURITY_HEADERS = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }

export const docsPageRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: DOCS_PATH,
    access: 'public',
    handler: () => ({ body: pageBody, headers: { ...SECURITY_HEADERS, 'cache-control': 'no-cache' } }),
    doc: {
      operationId: 'getDocsPage',
      summary: 'The API reference page',
      description:
        'Swagger UI over this document, from bundled assets: it loads nothing from outside this service. Absent when `DOCS=false`. Not counted against a rate limit.',
      tag: 'system',
      database: false,
      responses: {
        200: { description: 'An HTML page', content: { 'text/html': z.string() }, headers: { 'Content-Security-Policy': z.string() } },
      },
    },
  },
  {
    method: 'GET',
    path: `${ASSETS}/:file`,
    access: 'public',
    handler: async ({ params }) => ({
      body: await asset(params.file!),
      headers: { 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
    }),
    doc: {
      operationId: 'getDocsAsset',
      summary: 'A script or stylesheet of the reference page',
      tag: 'system',
      database: false,
      params: z.object({ file: z.enum(Object.keys(assets)) }),
      responses: {
        200: { description: 'The asset', content: { 'text/javascript': z.string(), 'text/css': z.string() } },
        404: { description: 'No such asset', body: errorBodies.not_found },
      },
    },
  },
]
