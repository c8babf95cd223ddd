import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'

import { renderGraphiQL } from '@graphql-yoga/render-graphiql'
import type { GraphiQLOptions } from 'graphql-yoga'
import { z } from 'zod'

import { notFound } from '../core/errors.ts'
import { errorBodies } from '../http/api-contract.ts'
import { RawBody } from '../http/responses.ts'
import type { DocumentedRoute } from '../http/router.ts'

/*
 * The tabs GraphiQL opens with (when the browser has none saved). Every line fits the query editor
 * of a 1280 px window (48 columns): Monaco does not wrap, and a cut instruction is a wrong one.
 */
const LOGIN_TAB = `# Exchange API — GraphiQL
#
# 1. Replace the placeholders in Variables below
#    with your client credentials (the demo
#    client's: DATA_DIR/demo-client.json), then
#    run Login (▶).
# 2. This page keeps tokens.access and sends it
#    as "Authorization: Bearer …" from every tab
#    whose Headers set no Authorization of their
#    own: run queries in any tab, Symbols first.
# 3. It expires after expiresIn seconds: run
#    Login again, or Refresh (last tab).
#
# The same API over REST: /docs (/openapi.json).

mutation Login(
  $clientId: String!
  $clientSecret: String!
) {
  login(
    clientId: $clientId
    clientSecret: $clientSecret
  ) {
    expiresIn
    tokens {
      access
      refresh
    }
  }
}
`

const SYMBOLS_TAB = `# Sent with the access token of the last Login.
query Symbols {
  symbols(limit: 5, orderBy: { field: symbol }) {
    total
    items {
      symbol
      tickSize
      base { symbol }
      quote { symbol }
    }
  }
}
`

const REFRESH_TAB = `# A new token pair for tokens.refresh of the last
# Login or Refresh (each refresh token works once).
# This page then sends the new access token.
mutation Refresh($refreshToken: String!) {
  refresh(refreshToken: $refreshToken) {
    expiresIn
    tokens {
      access
      refresh
    }
  }
}
`

/**
 * What the first tab says first when only trusted documents are served (docs/api.md, "Trusted
 * documents"): document text, this page's Login included, runs for admins only, so the steps above
 * are refused (400 PERSISTED_QUERY_ONLY) until an admin's token is in Headers.
 */
export const TRUSTED_ONLY_NOTICE = `# TRUSTED DOCUMENTS ONLY: this server runs
# documents sent as text (all this page sends)
# for admins only; anyone else gets 400
# PERSISTED_QUERY_ONLY, Login below included.
# An admin logs in over REST (POST
# /api/sso/v1/auth/login, see /docs) and sets
# Headers: {"Authorization": "Bearer <access>"}.
# Other clients send a documentId instead.
#
`

const LOGIN_VARIABLES = JSON.stringify({ clientId: '<CLIENT_ID>', clientSecret: '<CLIENT_SECRET>' }, null, 2)

/** GraphiQL's page options for a server: in trusted-only mode its first tab opens with the notice. */
export function graphiqlOptionsFor(config: { graphqlTrustedDocumentsOnly: boolean }): GraphiQLOptions {
  return {
    title: 'Exchange API',
    defaultTabs: [
      { query: `${config.graphqlTrustedDocumentsOnly ? TRUSTED_ONLY_NOTICE : ''}${LOGIN_TAB}`, variables: LOGIN_VARIABLES },
      { query: SYMBOLS_TAB },
      { query: REFRESH_TAB, variables: JSON.stringify({ refreshToken: '<tokens.refresh>' }, null, 2) },
    ],
    defaultEditorToolsVisibility: 'variables',
  }
}

/** The options of a server that takes document text from anyone. */
export const graphiqlOptions: GraphiQLOptions = graphiqlOptionsFor({ graphqlTrustedDocumentsOnly: false })

/**
 * Runs in the page before GraphiQL. GraphiQL keeps headers per tab, so a token pasted into one
 * tab's Headers left every other tab (and every new one) answering 401; this script instead keeps
 * the access token of the last login or refresh answered on this page (sessionStorage: this
 * browser tab only, gone when it closes) and adds it to GraphQL requests that carry no
 * Authorization of their own (a `<placeholder>` counts as none). GraphiQL calls `globalThis.fetch`
 * on every request, so wrapping it is enough.
 *
 * It also fills the Variables pane on a first visit: GraphiQL starts that editor from its
 * `graphiql:variables` key, not from the first tab's variables, so the placeholders were missing.
 */
const TOKEN_KEEPER = `(() => {
  const KEY = 'exchange-api:access-token'
  if (localStorage.getItem('graphiql:tabState') === null && localStorage.getItem('graphiql:variables') === null)
    localStorage.setItem('graphiql:variables', ${JSON.stringify(LOGIN_VARIABLES)})
  const endpoint = location.origin + location.pathname
  const send = globalThis.fetch.bind(globalThis)
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    if (url.origin + url.pathname !== endpoint) return send(input, init)
    const token = sessionStorage.getItem(KEY)
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
    const own = headers.get('authorization')
    if (token && (!own || own.includes('<'))) {
      headers.set('authorization', 'Bearer ' + token)
      init = { ...init, headers }
    }
    const response = await send(input, init)
    const asked = typeof init?.body === 'string' && /\\b(login|refresh)\\b/.test(init.body)
    if (asked && response.ok && /json/.test(response.headers.get('content-type') ?? '')) {
      const body = await response.clone().json().catch(() => null)
      const access = Object.values(body?.data ?? {}).map((field) => field?.tokens?.access).find((value) => typeof value === 'string')
      if (access) sessionStorage.setItem(KEY, access)
    }
    return response
  }
})()`

const MARK = '<div id="root"></div>'

/** Where the page's stylesheet and script are served from, each under a name that changes with its content. */
export const GRAPHIQL_ASSETS = '/graphiql/assets'

/**
 * Yoga's page inlines GraphiQL's ~9 MB of editor code and styles: every visit (and any stranger's
 * `Accept: text/html` request) carried all of it. Split out, they are two assets named by their
 * content, cached by browsers for good and gzipped for those that accept it; the page left is a
 * few KB (docs/api.md, "GraphiQL").
 */
interface PageParts {
  /** Up to the inline style, and from its end to the script that loads the editor. */
  head: string
  body: string
  /** The call that renders GraphiQL with this page's options, and the rest of the page. */
  render: string
  css: string
  js: string
  /** Yoga's icon, inlined as a base64 data URL. */
  icon?: { before: string; bytes: Buffer; type: string }
}

const STYLE_OPEN = '<style>'
const STYLE_CLOSE = '</style>'
const SCRIPT_OPEN = '<script>'
const CODE_START = 'function prepareBlob'
const RENDER_CALL = 'YogaGraphiQL.renderYogaGraphiQL('
const ICON = /<link rel="icon" href="data:([a-z/+.-]{1,40});base64,([A-Za-z0-9+/=]*)" \/>/

function splitPage(page: string): PageParts {
  const styleAt = page.indexOf(STYLE_OPEN)
  const styleEnd = page.indexOf(STYLE_CLOSE, styleAt)
  const codeAt = page.indexOf(CODE_START, styleEnd)
  const scriptAt = page.lastIndexOf(SCRIPT_OPEN, codeAt)
  const renderAt = page.indexOf(RENDER_CALL, codeAt)
  // Fails at the first render if a Yoga upgrade changes the page, rather than serving it broken.
  if ([styleAt, styleEnd, codeAt, scriptAt, renderAt].some((at) => at < 0) || scriptAt < styleEnd) {
    throw new Error("GraphiQL's page no longer has the inline style and script this service splits out")
  }
  const head = page.slice(0, styleAt)
  const icon = ICON.exec(head)
  return {
    head: icon ? head.slice(0, icon.index) : head,
    icon: icon ? { before: head.slice(icon.index + icon[0].length), type: icon[1]!, bytes: Buffer.from(icon[2]!, 'base64') } : undefined,
    body: page.slice(styleEnd + STYLE_CLOSE.length, scriptAt),
    render: page.slice(renderAt),
    css: page.slice(styleAt + STYLE_OPEN.length, styleEnd),
    js: page.slice(codeAt, renderAt),
  }
}

export interface GraphiQLAsset {
  name: string
  type: string
  bytes: Buffer
  /** Made on the first request that accepts it, off the event loop. */
  gzipped?: Promise<Buffer>
}

const assetNamed = (stem: string, ext: string, content: string | Buffer, type: string): GraphiQLAsset => {
  const bytes = Buffer.from(content)
  return { name: `${stem}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`, type, bytes }
}

let split: { parts: PageParts; css: GraphiQLAsset; js: GraphiQLAsset; icon?: GraphiQLAsset } | undefined
/** The editor's stylesheet and script, from one render (they do not depend on the page's options). */
function pageAssets(): NonNullable<typeof split> {
  if (!split) {
    const parts = splitPage(renderGraphiQL({}))
    split = {
      parts,
      css: assetNamed('graphiql', 'css', parts.css, 'text/css; charset=utf-8'),
      js: assetNamed('graphiql', 'js', parts.js, 'text/javascript; charset=utf-8'),
      icon: parts.icon && assetNamed('graphiql', 'ico', parts.icon.bytes, parts.icon.type),
    }
  }
  return split
}

/** An asset of the page by its name, or undefined. */
export function graphiqlAsset(name: string): GraphiQLAsset | undefined {
  const { css, js, icon } = pageAssets()
  return [css, js, icon].find((asset) => asset?.name === name)
}

/** The asset's bytes gzipped (zlib's thread pool; the first caller waits, later ones share it). */
export function gzippedAsset(asset: GraphiQLAsset): Promise<Buffer> {
  asset.gzipped ??= promisify(gzip)(asset.bytes, { level: 9 })
  return asset.gzipped
}

/** GraphiQL's page with the token keeper above, loading the editor from the assets. */
export function renderGraphiQLPage(options: GraphiQLOptions | undefined): string {
  const { css, js, icon } = pageAssets()
  const parts = splitPage(renderGraphiQL(options ?? {}))
  const same =
    parts.css === pageAssets().parts.css &&
    parts.js === pageAssets().parts.js &&
    Boolean(parts.icon?.bytes.equals(icon?.bytes ?? Buffer.alloc(0))) === Boolean(icon)
  if (!same) throw new Error("GraphiQL's editor code or icon depends on the page's options")
  if (!parts.body.includes(MARK)) throw new Error(`GraphiQL's page has no ${MARK}`)
  const body = parts.body.replace(MARK, () => `${MARK}\n<script>${TOKEN_KEEPER}</script>`)
  const head = icon && parts.icon ? `${parts.head}<link rel="icon" href="${GRAPHIQL_ASSETS}/${icon.name}" />${parts.icon.before}` : parts.head
  return `${head}<link rel="stylesheet" href="${GRAPHIQL_ASSETS}/${css.name}">${body}<script src="${GRAPHIQL_ASSETS}/${js.name}"></script>\n<script>${parts.render}`
}

// The asset names carry their content's hash: a name always means the same bytes.
const IMMUTABLE = 'public, max-age=31536000, immutable'
const ACCEPTS_GZIP = /(^|,)\s*gzip\s*(;\s*q=(1(\.0*)?|0?\.\d*[1-9]\d*))?\s*(,|$)/i
const MAX_ACCEPT_ENCODING = 256

export const graphiqlAssetRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: `${GRAPHIQL_ASSETS}/:file`,
    access: 'public',
    handler: async ({ params, header }) => {
      const asset = graphiqlAsset(params.file!)
      if (!asset) throw notFound(`No asset ${params.file!.slice(0, 64)}`)
      const accepted = header('accept-encoding')
      const headers = { 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff', vary: 'accept-encoding' }
      if (accepted !== undefined && accepted.length <= MAX_ACCEPT_ENCODING && ACCEPTS_GZIP.test(accepted)) {
        return { body: new RawBody(await gzippedAsset(asset), asset.type), headers: { ...headers, 'content-encoding': 'gzip' } }
      }
      return { body: new RawBody(asset.bytes, asset.type), headers }
    },
    doc: {
      operationId: 'getGraphiQLAsset',
      summary: 'The stylesheet, script or icon of the GraphiQL page',
      description:
        'Named by its content, so cached for good; gzipped when the request accepts it. Absent when `GRAPHIQL=false`. Not counted against a rate limit.',
      tag: 'system',
      database: false,
      params: z.object({ file: z.string().max(64) }),
      responses: {
        200: { description: 'The asset', content: { 'text/javascript': z.string(), 'text/css': z.string(), 'image/x-icon': z.string() } },
        404: { description: 'No such asset', body: errorBodies.not_found },
      },
    },
  },
]
