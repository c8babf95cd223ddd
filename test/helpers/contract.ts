import { readFileSync } from 'node:fs'

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

import { openApiPath } from '../../src/app/openapi.ts'
import { routes as appRoutes } from '../../src/app/routes.ts'
import { type Route, Router } from '../../src/http/router.ts'

/**
 * Contract tests (docs/contracts.md): every response a test receives from a test server's REST
 * face is checked against the committed `openapi.json` — its status must be documented for the
 * operation, its content type one the document lists, its JSON body valid against the schema, its
 * headers present where required and valid. A violation makes the `fetch` that received it throw,
 * so the test that made the request fails with the reason.
 *
 * Which operation a request reached is decided by the router of the table the server serves: a
 * route of the application's table is checked; a path nothing serves is checked against
 * `NotFound`, another method of a served path against `MethodNotAllowed`; only routes a test
 * added itself (the probes of `probe-app.ts`, stand-ins at the login paths) are not, since the
 * document does not describe them. An application route cannot be left unchecked: it is
 * recognised by identity, whatever else the server serves.
 */

// ajv-formats is CommonJS with `export default`; under NodeNext its default is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

type Json = Record<string, any>

const DOCUMENT_URL = new URL('../../openapi.json', import.meta.url)
// Served by Yoga (GraphQL, GraphiQL, metrics), not by the REST router: not in the document.
const YOGA_PATHS = new Set(['/graphql', '/metrics'])

export class ContractViolation extends Error {
  override name = 'ContractViolation'
}

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')

export class ContractChecker {
  readonly document: Json
  readonly #bodies: Ajv2020
  readonly #headers: Ajv2020
  readonly #compiled = new Map<string, ValidateFunction>()

  constructor(document: Json = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as Json) {
    this.document = document
    const options = { allErrors: true, strict: true, allowUnionTypes: true } as const
    this.#bodies = new Ajv2020({ ...options, coerceTypes: false })
    // Header values are text: `"60"` is the integer 60.
    this.#headers = new Ajv2020({ ...options, coerceTypes: true })
    for (const ajv of [this.#bodies, this.#headers]) {
      addFormats(ajv)
      // Annotation keywords of OpenAPI's Schema Object, and the document's own top-level keys (the
      // document is added whole so `#/components/...` references resolve).
      ajv.addVocabulary([
        'example',
        'discriminator',
        'xml',
        'externalDocs',
        'openapi',
        'info',
        'servers',
        'paths',
        'components',
        'security',
        'tags',
        'webhooks',
      ])
      ajv.addSchema(structuredClone(document), 'openapi.json')
    }
  }

  /**
   * Checks one response. `served` is the route table of the server that answered (the application's,
   * or an infrastructure test's with probes); undefined when the response is not the REST face's.
   */
  check(request: { method: string; pathname: string }, response: { status: number; headers: Headers; text: string }, served: Router): string[] {
    const method = request.method.toUpperCase()
    if (YOGA_PATHS.has(request.pathname)) return []
    const match = served.match(method, request.pathname)
    // A CORS preflight is answered by Yoga's CORS plugin on every path.
    if (method === 'OPTIONS' && response.status !== 405) return []
    if (!match) return this.#checkResponse('components/responses/NotFound', this.document.components.responses.NotFound, method, response, '404')
    if ('allowed' in match) {
      return this.#checkResponse('components/responses/MethodNotAllowed', this.document.components.responses.MethodNotAllowed, method, response, '405')
    }
    if (!isAppRoute(match.route)) return []
    const path = openApiPath(match.route.path)
    const operationMethod = match.route.method.toLowerCase()
    const operation = this.document.paths?.[path]?.[operationMethod] as Json | undefined
    if (!operation) return [`${match.route.method} ${path} is served but not in openapi.json (run \`npm run openapi\`)`]
    const status = String(response.status)
    const documented = operation.responses?.[status] ?? operation.responses?.default
    if (!documented) {
      return [
        `${match.route.method} ${path} answered ${status}, which the document does not list (it lists ${Object.keys(operation.responses ?? {}).join(', ')})`,
      ]
    }
    const at = pointer('paths', path, operationMethod, 'responses', operation.responses[status] ? status : 'default')
    return this.#checkResponse(at, documented, method, response, status).map((p) => `${match.route.method} ${path} ${status}: ${p}`)
  }

  #checkResponse(at: string, documented: Json, method: string, response: { status: number; headers: Headers; text: string }, expected: string): string[] {
    if (String(response.status) !== expected) return [`answered ${response.status}, the document has ${expected} here`]
    const [object, base] = this.#resolve(documented, at)
    const problems: string[] = []
    for (const [name, header] of Object.entries((object.headers ?? {}) as Json)) {
      const [resolved, headerAt] = this.#resolve(header as Json, `${base}/headers/${pointer(name)}`)
      const value = response.headers.get(name)
      if (value === null) {
        if (resolved.required) problems.push(`header ${name} is required but absent`)
        continue
      }
      const validate = this.#validator(this.#headers, `${headerAt}/schema`)
      if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(value)} ${errorsText(validate)}`)
    }
    const content = object.content as Json | undefined
    if (!content) {
      if (response.text !== '') problems.push('a body where the document describes none')
      return problems
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    const mediaType = Object.keys(content).find((type) => type.toLowerCase() === contentType)
    if (!mediaType) return [...problems, `content type ${JSON.stringify(contentType)} is not one of ${Object.keys(content).join(', ')}`]
    if (method === 'HEAD' || !/json$/.test(mediaType) || !content[mediaType].schema) return problems
    let body: unknown
    try {
      body = JSON.parse(response.text)
    } catch {
      return [...problems, 'the body is not JSON']
    }
    const validate = this.#validator(this.#bodies, `${base}/content/${pointer(mediaType)}/schema`)
    if (!validate(body)) problems.push(`body ${errorsText(validate)}: ${response.text.slice(0, 300)}`)
    return problems
  }

  /** Follows a `$ref` of a response or header object; returns it and the pointer it lives at. */
  #resolve(object: Json, at: string): [Json, string] {
    const ref = object.$ref as string | undefined
    if (!ref) return [object, at]
    const path = ref.replace(/^#\//, '')
    const target = path.split('/').reduce<any>((node, part) => node?.[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')], this.document)
    if (!target) throw new Error(`openapi.json: unresolved ${ref}`)
    return this.#resolve(target as Json, path)
  }

  #validator(ajv: Ajv2020, at: string): ValidateFunction {
    const key = `${ajv === this.#headers ? 'h' : 'b'}:${at}`
    let validate = this.#compiled.get(key)
    if (!validate) this.#compiled.set(key, (validate = ajv.compile({ $ref: `openapi.json#/${at}` })))
    return validate
  }
}

/** ajv's errors with what they are about (`errorsText` leaves out the name of an extra property). */
function errorsText(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
    )
    .join('; ')
}

const appRouteSet: ReadonlySet<Route> = new Set(appRoutes)
const isAppRoute = (route: Route) => appRouteSet.has(route)

// --- Every fetch to a registered test server is checked ---

let checker: ContractChecker | undefined
const servers = new Map<string, Router>()
let originalFetch: typeof fetch | undefined

/** Checks every response from `origin` (a test server's URL) until `unregister` is called. */
export function registerContractChecks(origin: string, served: readonly Route[]): () => void {
  checker ??= new ContractChecker()
  const key = new URL(origin).origin
  servers.set(key, new Router([...served]))
  if (!originalFetch) {
    originalFetch = globalThis.fetch
    globalThis.fetch = checkedFetch
  }
  return () => {
    servers.delete(key)
  }
}

async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await originalFetch!(input, init)
  const url = new URL(input instanceof Request ? input.url : String(input))
  const served = servers.get(url.origin)
  // Yoga's answers are not the REST face's: left unread.
  if (!served || YOGA_PATHS.has(url.pathname)) return response
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
  let text: string
  // A stream's body never ends: its status and headers are checked, its messages by the test.
  const streaming = /^text\/event-stream/i.test(response.headers.get('content-type') ?? '')
  try {
    text = streaming ? '' : await response.clone().text()
  } catch {
    return response // the caller gave up on the body (an aborted request)
  }
  const problems = checker!.check({ method, pathname: url.pathname }, { status: response.status, headers: response.headers, text }, served)
  if (problems.length) throw new ContractViolation(`${method} ${url.pathname}${url.search}: not as openapi.json describes it:\n- ${problems.join('\n- ')}`)
  return response
}
