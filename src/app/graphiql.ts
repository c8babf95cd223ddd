import { renderGraphiQL } from '@graphql-yoga/render-graphiql'
import type { GraphiQLOptions } from 'graphql-yoga'

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

/** GraphiQL's page with the token keeper above. */
export function renderGraphiQLPage(options: GraphiQLOptions | undefined): string {
  const page = renderGraphiQL(options ?? {})
  // Fails at the first render if a Yoga upgrade changes the page, rather than serving it without.
  if (!page.includes(MARK)) throw new Error(`GraphiQL's page has no ${MARK}`)
  return page.replace(MARK, () => `${MARK}\n<script>${TOKEN_KEEPER}</script>`)
}
