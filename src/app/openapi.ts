import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi'

import { kinds } from '../core/errors.ts'
import {
  API_TAGS,
  type DocumentedErrorKind,
  errorBodies,
  type Examples,
  notFoundExamples,
  rateLimitHeaders,
  requestIdHeader,
  type ResponseDoc,
  retryAfterHeader,
  type RouteDoc,
  tokenFailureBody,
  tokenFailureExamples,
  validationErrorBody,
  validationExamples,
} from '../http/api-contract.ts'
import { JsonText } from '../http/responses.ts'
import type { DocumentedRoute, Route } from '../http/router.ts'

/**
 * The OpenAPI 3.1 document of the REST face, assembled from the route table: each route's own
 * `doc` (next to its handler) plus the answers its access, scope, parameters and body imply, so
 * the table and the document cannot drift (docs/contracts.md). `npm run openapi` writes it to
 * `openapi.json`; `GET /openapi.json` serves the same bytes.
 */
export const OPENAPI_PATHS = ['/openapi.json', '/api/openapi.json'] as const

const DESCRIPTION = `The exchange center's API for banks. Log in with your client credentials
(\`POST /api/sso/v1/auth/login\`), send the access token as \`Authorization: Bearer <token>\` on every other call,
and refresh it with the refresh token (\`POST /api/sso/v1/auth/refresh\`) before it expires (\`expires_in\` seconds).

- **Bodies** are JSON; a request body needs \`Content-Type: application/json\` and at most 1 MiB.
- **Decimals** travel as strings, never JSON numbers. **Timestamps** are UTC without a zone, with exactly
  6 fraction digits (\`2026-11-25T21:30:00.123456\`); date-time *filters* take a zone (\`…Z\` or \`±hh:mm\`).
- **Errors** have one shape per kind (see the responses of each operation). A path that is not listed here
  answers 404 (\`NotFound\`); a listed path with another method answers 405 (\`MethodNotAllowed\`, with \`Allow\`).
  \`HEAD\` is answered wherever \`GET\` is.
- **Rate limits** answer 429 with \`Retry-After\`; \`RateLimit-*\` headers say where a caller stands.
- Every answer carries \`X-Request-Id\`.

GraphQL for dashboards is at \`/graphql\` (not described here; see its schema).`

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character)',
  401: 'Missing, malformed, expired, tampered with or revoked access token',
  404: 'Not found',
  409: 'Conflict',
  413: 'The body is over 1 MiB',
  415: 'The body is not JSON (`Content-Type` must be `application/json` or `*/*+json`)',
  422: 'Validation failed: every rule broken, in field order',
  429: 'Over a rate limit; nothing was done',
  500: 'Internal error (logged with the request id; no detail is given)',
  503: 'The database is unreachable; try again after `Retry-After` seconds',
  504: 'The database did not answer in time',
}

const baseHeaders = { 'X-Request-Id': requestIdHeader }
const countedHeaders = { ...baseHeaders, ...rateLimitHeaders }

function jsonResponse(description: string, body: z.ZodType, headers: Record<string, z.ZodType>, examples?: Examples): ZodOpenApiResponseObject {
  return { description, headers: z.object(headers), content: { 'application/json': { schema: body, ...(examples ? { examples } : {}) } } }
}

/** Answers any route may give, shared as `components.responses`. */
const shared = {
  unauthorized: { id: 'Unauthorized', ...jsonResponse(STATUS_TEXT[401]!, tokenFailureBody, countedHeaders, tokenFailureExamples) },
  tooManyRequests: {
    id: 'TooManyRequests',
    ...jsonResponse(STATUS_TEXT[429]!, errorBodies.rate_limited, { ...countedHeaders, 'Retry-After': retryAfterHeader }),
  },
  validation: { id: 'ValidationFailed', ...jsonResponse(STATUS_TEXT[422]!, validationErrorBody, countedHeaders, validationExamples) },
  payloadTooLarge: { id: 'PayloadTooLarge', ...jsonResponse(STATUS_TEXT[413]!, errorBodies.payload_too_large, countedHeaders) },
  unsupportedMediaType: { id: 'UnsupportedMediaType', ...jsonResponse(STATUS_TEXT[415]!, errorBodies.unsupported_media_type, countedHeaders) },
  internal: { id: 'InternalError', ...jsonResponse(STATUS_TEXT[500]!, errorBodies.internal, countedHeaders) },
  unavailable: {
    id: 'ServiceUnavailable',
    ...jsonResponse(STATUS_TEXT[503]!, errorBodies.service_unavailable, { ...countedHeaders, 'Retry-After': retryAfterHeader }),
  },
  timeout: { id: 'GatewayTimeout', ...jsonResponse(STATUS_TEXT[504]!, errorBodies.gateway_timeout, countedHeaders) },
} satisfies Record<string, ZodOpenApiResponseObject>

/** Answers of no operation: an unknown path, a known path with another method. */
const unrouted = {
  NotFound: jsonResponse('No route has this path', errorBodies.not_found, baseHeaders, {
    unknown: { summary: 'An unknown path', value: { message: 'No route for /api/nope', error: 'not_found', detail: 'No route for /api/nope' } },
  }),
  MethodNotAllowed: jsonResponse('The path exists, the method does not; `Allow` lists the methods it has', errorBodies.method_not_allowed, {
    ...baseHeaders,
    Allow: z.string().meta({ example: 'GET, POST' }),
  }),
}

const errorStatus = (kind: DocumentedErrorKind) => kinds[kind].status

function operation(route: Route, doc: RouteDoc): ZodOpenApiOperationObject {
  const access = route.access ?? 'token'
  const counted = access !== 'public'
  const successHeaders = counted ? countedHeaders : baseHeaders
  const responses: Record<string, ZodOpenApiResponseObject> = {}
  for (const [status, response] of Object.entries(doc.responses) as [string, ResponseDoc][]) {
    // The shared error body's own example names one resource: a 404 names the route's.
    const examples = status === '404' && response.body && !response.examples ? notFoundExamples(route.path) : response.examples
    responses[status] = ownResponse({ ...response, examples }, successHeaders)
  }
  const add = (status: number, response: ZodOpenApiResponseObject) => {
    responses[String(status)] ??= response
  }
  const errorResponse = (kind: DocumentedErrorKind, when: string) =>
    jsonResponse(when, errorBodies[kind], counted ? countedHeaders : baseHeaders, kind === 'not_found' ? notFoundExamples(route.path) : undefined)
  if (access === 'token') add(401, shared.unauthorized)
  // Any caller whose client has an address allow-list may be refused by it (docs/operations.md, "Address allow-lists").
  const addressRefusal = access !== 'public' && "The caller's address is outside its client's allow-list (`Address not allowed`)"
  const forbidden = [doc.scope && `The token lacks the scope \`${doc.scope}\``, doc.errors?.forbidden, addressRefusal].filter(Boolean)
  if (forbidden.length) add(403, errorResponse('forbidden', forbidden.join('; or: ')))
  for (const [kind, when] of Object.entries(doc.errors ?? {}) as [DocumentedErrorKind, string][]) add(errorStatus(kind), errorResponse(kind, when))
  const database = doc.database ?? access !== 'public'
  if (doc.body || (database && (doc.query || doc.params))) add(400, errorResponse('bad_request', STATUS_TEXT[400]!))
  if (doc.body) {
    add(413, shared.payloadTooLarge)
    add(415, shared.unsupportedMediaType)
  }
  if (doc.body || doc.query) add(422, shared.validation)
  if (counted) add(429, shared.tooManyRequests)
  add(500, shared.internal)
  if (database) {
    add(503, shared.unavailable)
    add(504, shared.timeout)
  }
  const scopeNote = doc.scope ? `Requires the scope \`${doc.scope}\`.` : access === 'token' ? 'Requires a valid access token.' : 'No token needed.'
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: [doc.description, scopeNote].filter(Boolean).join('\n\n'),
    tags: [doc.tag],
    ...(doc.deprecated ? { deprecated: true } : {}),
    security: access === 'token' ? [{ bearerAuth: [] }, { dpopAuth: [], dpopProof: [] }] : access === 'login' ? [{}, { dpopProof: [] }] : [],
    ...(doc.params || doc.query || doc.requestHeaders
      ? {
          requestParams: {
            ...(doc.params ? { path: doc.params } : {}),
            ...(doc.query ? { query: doc.query } : {}),
            ...(doc.requestHeaders ? { header: doc.requestHeaders } : {}),
          },
        }
      : {}),
    ...(doc.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: doc.body, ...(doc.bodyExamples ? { examples: doc.bodyExamples } : {}) } } } }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  }
}

function ownResponse(response: ResponseDoc, headers: Record<string, z.ZodType>): ZodOpenApiResponseObject {
  const allHeaders = z.object({ ...headers, ...response.headers })
  if (response.content) {
    return {
      description: response.description,
      headers: allHeaders,
      content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])),
    }
  }
  if (!response.body) return { description: response.description, headers: allHeaders }
  return {
    description: response.description,
    headers: allHeaders,
    content: { 'application/json': { schema: response.body, ...(response.examples ? { examples: response.examples } : {}) } },
  }
}

/** `/api/exchange/v1/orders/:uid` → `/api/exchange/v1/orders/{uid}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

export function buildOpenApiDocument(routes: readonly DocumentedRoute[]): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {}
  const operationIds = new Set<string>()
  for (const route of routes) {
    if (!route.doc) throw new Error(`Route ${route.method} ${route.path} has no doc`)
    if (operationIds.has(route.doc.operationId)) throw new Error(`Duplicate operationId ${route.doc.operationId}`)
    operationIds.add(route.doc.operationId)
    const item = (paths[openApiPath(route.path)] ??= {})
    item[route.method.toLowerCase() as 'get' | 'post' | 'delete' | 'put' | 'patch'] = operation(route, route.doc)
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: { title: 'Exchange API', version: '1.0.0', description: DESCRIPTION },
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      paths,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            // Swagger UI's Authorize dialog shows this beside its field and adds `Bearer ` itself.
            description:
              'Paste the token alone: the access token of a login or refresh (`tokens.access`), without `Bearer`. ' +
              'It is sent as `Authorization: Bearer <token>`, the header every other client sends itself.',
          },
          // RFC 9449: a client registered with `--dpop required` sends its token under the DPoP
          // scheme with a fresh proof in the `DPoP` header on every call (docs/api.md, "Sender-constrained tokens (DPoP)").
          dpopAuth: {
            type: 'http',
            scheme: 'DPoP',
            description:
              'For clients bound to a key (DPoP, RFC 9449): `Authorization: DPoP <token>`, with `dpopProof`. A bound token sent as `Bearer` is refused (401).',
          },
          dpopProof: {
            type: 'apiKey',
            in: 'header',
            name: 'DPoP',
            description:
              "A fresh proof JWT for this call (`typ: dpop+jwt`; `htm`, `htu`, `iat`, a new `jti`, `ath` = the token's SHA-256), signed by the key the token is bound to. Also sent to login and refresh to bind the tokens.",
          },
        },
        responses: unrouted,
      },
    },
    {
      override: ({ jsonSchema }) => {
        // zod writes ±(2^53-1) as the bounds of every z.int(): noise in a document.
        if (jsonSchema.minimum === -Number.MAX_SAFE_INTEGER) delete jsonSchema.minimum
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
      },
    },
  )
  return stableOrder(document as unknown as Record<string, unknown>)
}

/** Paths, components and their entries in sorted order, so the committed file changes only where the API does. */
function stableOrder(document: Record<string, unknown>): Record<string, unknown> {
  const sorted = (object: unknown) =>
    Object.fromEntries(Object.entries((object ?? {}) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  const components = document.components as Record<string, unknown> | undefined
  return {
    ...document,
    paths: sorted(document.paths),
    ...(components ? { components: Object.fromEntries(Object.entries(sorted(components)).map(([key, value]) => [key, sorted(value)])) } : {}),
  }
}

/** The document as committed and served: two-space JSON with a final newline. */
export function openApiText(routes: readonly DocumentedRoute[]): string {
  return `${JSON.stringify(buildOpenApiDocument(routes), null, 2)}\n`
}

/**
 * `GET /openapi.json` and `/api/openapi.json`: the document of `table()` (the application's
 * routes, these included), built on first use and then served as the same bytes.
 */
export function openApiRoutes(table: () => readonly DocumentedRoute[]): DocumentedRoute[] {
  let bytes: JsonText | undefined
  const serve = () => ({ body: (bytes ??= new JsonText(Buffer.from(openApiText(table())))), headers: { 'cache-control': 'public, max-age=60' } })
  return OPENAPI_PATHS.map((path, i) => ({
    method: 'GET' as const,
    path,
    access: 'public' as const,
    handler: serve,
    doc: {
      operationId: i === 0 ? 'getOpenApiDocument' : 'getOpenApiDocumentUnderApi',
      summary: i === 0 ? 'This OpenAPI document' : 'This OpenAPI document (under /api)',
      description: 'OpenAPI 3.1, generated from the schemas the routes validate with. Not counted against a rate limit.',
      tag: 'system',
      database: false,
      responses: {
        200: {
          description: 'The document',
          body: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }),
          headers: { 'Cache-Control': z.literal('public, max-age=60') },
        },
      },
    },
  }))
}
