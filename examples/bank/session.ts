import createClient, { type Client, type Middleware } from 'openapi-fetch'

import type { components, paths } from './generated/openapi.d.ts'

export type Api = Client<paths>
type TokenSet = components['schemas']['TokenSet']

export interface Credentials {
  client_id: string
  client_secret: string
}

/**
 * A bank's session with the exchange: logs in, keeps the token pair, and refreshes it before the
 * access token expires (`refreshMargin` seconds ahead), so no call is ever sent with an expired
 * token. Every call through `api` carries `Authorization: Bearer <access>`.
 */
export class ExchangeSession {
  readonly api: Api
  readonly #auth: Api
  #tokens: TokenSet | undefined
  #expiresAt = 0
  #refreshing: Promise<void> | undefined

  constructor(
    baseUrl: string,
    private readonly credentials: Credentials,
    private readonly refreshMargin = 60,
  ) {
    // Login and refresh go through a client without the middleware: they need no token.
    this.#auth = createClient<paths>({ baseUrl })
    this.api = createClient<paths>({ baseUrl })
    const bearer: Middleware = {
      onRequest: async ({ request }) => {
        request.headers.set('Authorization', `Bearer ${await this.accessToken()}`)
        return request
      },
    }
    this.api.use(bearer)
  }

  async login(): Promise<void> {
    const { data, error, response } = await this.#auth.POST('/api/sso/v1/auth/login', { body: this.credentials })
    // `error` is typed per status: 401 is LoginFailure, whose message is `{ en }`.
    if (response.status === 401) throw new Error(`login refused: ${(error as components['schemas']['LoginFailure']).message.en}`)
    if (!data) throw new Error(`login failed: ${response.status} ${JSON.stringify(error)}`)
    this.#keep(data.tokens, data.expires_in)
  }

  /** Exchanges the refresh token (usable once) for a new pair in the same session. */
  async refresh(): Promise<void> {
    if (!this.#tokens) return this.login()
    const { data, response } = await this.#auth.POST('/api/sso/v1/auth/refresh', { body: { refresh_token: this.#tokens.refresh } })
    // A refresh token that no longer works (expired, session revoked): log in again.
    if (response.status === 401) return this.login()
    if (!data) throw new Error(`refresh failed: ${response.status}`)
    this.#keep(data.tokens, data.expires_in)
  }

  /** Seconds the current access token has left. */
  get secondsLeft(): number {
    return Math.max(0, this.#expiresAt - Date.now() / 1000)
  }

  /** A valid access token, refreshed first when it expires within `refreshMargin` seconds. */
  async accessToken(): Promise<string> {
    if (!this.#tokens) await this.login()
    else if (this.secondsLeft <= this.refreshMargin) {
      // Concurrent calls share one refresh: a refresh token works once.
      this.#refreshing ??= this.refresh().finally(() => (this.#refreshing = undefined))
      await this.#refreshing
    }
    return this.#tokens!.access
  }

  #keep(tokens: TokenSet, expiresIn: number): void {
    this.#tokens = tokens
    this.#expiresAt = Date.now() / 1000 + expiresIn
  }
}
