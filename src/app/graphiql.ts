import type { GraphiQLOptions } from 'graphql-yoga'

/**
 * The tabs GraphiQL opens with (when the browser has none saved): the first says how to log in and
 * where the token goes, the second is a query to run once it is there.
 */
const LOGIN_TAB = `# Exchange API — GraphiQL
#
# 1. Log in: put your client credentials in the Variables tab below
#    (the demo client's are in DATA_DIR/demo-client.json) and run Login.
# 2. Copy tokens.access from the answer into the Headers tab below:
#      { "Authorization": "Bearer <tokens.access>" }
# 3. Run queries in the next tab. The access token expires after expiresIn
#    seconds: run Refresh with tokens.refresh (usable once) for a new pair.
#
# The same API over REST is described at /docs (OpenAPI: /openapi.json).

mutation Login($clientId: String!, $clientSecret: String!) {
  login(clientId: $clientId, clientSecret: $clientSecret) {
    expiresIn
    tokens {
      access
      refresh
    }
  }
}

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

const SYMBOLS_TAB = `# Needs the Authorization header of the first tab.
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

export const graphiqlOptions: GraphiQLOptions = {
  title: 'Exchange API',
  defaultTabs: [
    { query: LOGIN_TAB, variables: JSON.stringify({ clientId: '<CLIENT_ID>', clientSecret: '<CLIENT_SECRET>', refreshToken: '<tokens.refresh>' }, null, 2) },
    { query: SYMBOLS_TAB, headers: JSON.stringify({ Authorization: 'Bearer <tokens.access>' }, null, 2) },
  ],
  defaultEditorToolsVisibility: 'variables',
}
