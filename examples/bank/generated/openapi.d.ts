// Generated from openapi.json by `npm run openapi` (openapi-typescript). Do not edit.
export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Not an endpoint: says where the API is
         * @description No token needed.
         */
        get: operations["getRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys that verify access tokens
         * @description Every signing key not yet retired (Ed25519). Fetch again on a token whose `kid` you do not know.
         *
         *     No token needed.
         */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit records
         * @description Admins only (role `admin`). Every operator and admin action, login, refused login (folded per client id, address and minute, with `count`), refresh-token reuse, refused address and refused admin call, oldest first by default. A refusal of this call is recorded too.
         *
         *     Requires the scope `audit:read`.
         */
        get: operations["listAuditRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/v1/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with client credentials (alias of /api/sso/v1/auth/login)
         * @deprecated
         * @description Opens a new session: the access token's claims, `tokens.access`, `tokens.refresh` and `expires_in`. Earlier sessions of the client stay valid. Attempts are limited per address and per (client id, address).
         *
         *     No token needed.
         */
        post: operations["loginLegacy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/v1/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens (alias of /api/sso/v1/auth/refresh)
         * @deprecated
         * @description Consumes the refresh token (it works once) and answers a new pair in the same session. A refresh token presented again after `REFRESH_REUSE_WINDOW` seconds revokes its session.
         *
         *     No token needed.
         */
        post: operations["refreshLegacy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Your tenant's accounts, one per currency it has used, by currency (admins: another tenant's with `tenant_id`).
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/accounts/{currency}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One account
         * @description Your tenant's account in one currency: zeros (and `updated_at` null) when it was never used.
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/accounts/{currency}/statement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Account statement
         * @description Your tenant's account in one currency over [`from`, `to`): the balance at each end, the period's credits and debits, and every entry, oldest first (admins: another tenant's with `tenant_id`). At most 366 days. Streamed: a year of entries is answered in any form. `Accept: text/csv` answers CSV, `application/xml` ISO 20022 camt.053.001.08; anything else JSON.
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["getAccountStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List destinations
         * @description Your tenant's destinations (admins: every tenant's, or one's with `tenant_id`).
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["listDestinations"];
        put?: never;
        /**
         * Register a destination
         * @description Admins only (role `admin`). Registers an account a tenant's withdrawals in one currency may be paid to. `iban` must be an IBAN (ISO 13616, mod-97) or an Iranian Sheba (`IR` and 24 digits), else 422 `value_error.iban`.
         *
         *     Requires the scope `accounts:write`.
         */
        post: operations["createDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your tenant's order events
         * @description Every change of your orders, in order: `order.created`, `order.updated` (filled, partially filled, cancelled) and `fill`, and `balance` (an account changed) and `withdrawal` (a withdrawal changed) for callers with `accounts:read`, numbered by `sequence` without gaps (a caller without `accounts:read` is not given those events: its sequence shows their gaps). With `Accept: text/event-stream`, a Server-Sent Events stream that resumes after `after` or `Last-Event-ID`; otherwise one page of the events after `after`, for polling.
         *
         *     Requires the scope `orders:read`.
         */
        get: operations["streamOrderEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/fills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List fills
         * @description Your tenant's fills, each a trade seen from one of your orders (admins: every tenant's, or one tenant's with `tenant_id`).
         *
         *     Requires the scope `orders:read`.
         */
        get: operations["listFills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List ledger entries
         * @description Every change of your tenant's balances: deposits, withdrawals, trades and fees, never edited or deleted (admins: every tenant's, or one tenant's with `tenant_id`).
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["listLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders
         * @description Your tenant's orders (admins: every tenant's).
         *
         *     Requires the scope `orders:read`.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Place an order
         * @description Checked against the symbol's rules; `detail` lists every rule the order breaks, in field order.
         *
         *     Requires the scope `orders:write`.
         */
        post: operations["createOrder"];
        /**
         * Cancel many orders
         * @description Cancels every open or partially filled order of your tenant, on the symbols named (one or a comma-separated list) or all, one side or both. Admins name the tenant with `tenant_id`. Each symbol's orders are cancelled in its matching pass: an order not in `items` had traded first.
         *
         *     Requires the scope `orders:write`.
         */
        delete: operations["cancelOrders"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/orders/by-client-id/{client_order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One order, by client order id
         * @description The order your tenant placed with this `client_order_id`, as `GET /orders/<uid>` answers it. Your tenant's orders only (admins too).
         *
         *     Requires the scope `orders:read`.
         */
        get: operations["getOrderByClientId"];
        put?: never;
        post?: never;
        /**
         * Cancel an order, by client order id
         * @description Cancels, as `DELETE /orders/<uid>` does, the order your tenant placed with this `client_order_id`.
         *
         *     Requires the scope `orders:write`.
         */
        delete: operations["cancelOrderByClientId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/orders/cancel-after": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel on disconnect (a dead man’s switch)
         * @description Arms, moves or (0) disarms your tenant’s deadline: unless this is called again before it, every open or partially filled order and every pending stop order of your tenant is cancelled with `cancel_reason: "deadline"` within 1 s after it, its hold released, by whichever instance is up. Call it every few seconds with a timeout longer than the interval.
         *
         *     Requires the scope `orders:write`.
         */
        post: operations["cancelAfter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/orders/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an order without placing it
         * @description A dry run of placing the body: the same checks against the symbol's rules and the same errors as `POST /orders`, nothing stored or matched. A `client_order_id` already used for a different order is a conflict, as placing it would be.
         *
         *     Requires the scope `orders:write`.
         */
        post: operations["validateOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/orders/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One order
         * @description Requires the scope `orders:read`.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        /**
         * Cancel an order
         * @description Cancels what is left of an open or partially filled order of your tenant.
         *
         *     Requires the scope `orders:write`.
         */
        delete: operations["cancelOrder"];
        options?: never;
        head?: never;
        /**
         * Amend an order
         * @description Changes the quantity, the price or both of an open or partially filled order of your tenant, in its symbol's matching pass. A smaller quantity at the same price keeps its time priority; a new price or a larger quantity sends it to the back of its level and it may trade at once, as a new order would. Its hold follows the new values.
         *
         *     Requires the scope `orders:write`.
         */
        patch: operations["amendOrder"];
        trace?: never;
    };
    "/api/exchange/v1/symbols": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List symbols
         * @description Tradable currency pairs with their trading rules and both currencies' display properties.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["listSymbols"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One symbol
         * @description Requires the scope `symbols:read`.
         */
        get: operations["getSymbol"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}/book": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A symbol's order book
         * @description What rests on each side, by price level (merged by a price step with `group`), with the market sequence it reflects and the checksum of its best 10 levels per side (docs/api.md, "Book integrity"). Public market data: no tenant appears in it.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["getOrderBook"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}/candles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A symbol's candles
         * @description OHLC candles of one interval, oldest first; intervals without trades are left out. `1h` and `4h` candles are aligned to the wall clock of `MARKET_TIMEZONE` and `1d` candles are its market days. With `from`, the first `limit` candles from it; without, the latest `limit` (up to `to`). The newest candle is live: it includes every trade committed before the request.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["listCandles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A symbol's market events
         * @description The symbol's trades (`trade`) and book level changes (`book`), numbered by `sequence` without gaps; the book snapshot carries the sequence it reflects, so apply the events after it. Public market data: no tenant appears in it. Streams and lists as `GET /api/exchange/v1/events` does.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["streamMarketEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}/ticker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A symbol's 24-hour ticker
         * @description The last 24 hours to the minute (the current minute and the 1,439 before it): first, high, low and last trade prices, volumes, trade count, the best bid and ask and the reference price. Every trade committed before the request is counted. Public market data: no tenant appears in it.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["getTicker"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/symbols/{symbol}/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A symbol's latest trades
         * @description Public trades, newest first. `total` counts every trade of the symbol.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["listTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/tickers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every active symbol's 24-hour ticker
         * @description The tickers of the active symbols, in symbol order, as `GET …/symbols/<symbol>/ticker` answers each.
         *
         *     Requires the scope `symbols:read`.
         */
        get: operations["listTickers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/time": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The server's clock
         * @description For aligning a client clock with the one candles and tickers are computed with. No token needed.
         *
         *     No token needed.
         */
        get: operations["getServerTime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deposit to or withdraw from an account
         * @description Admins only (role `admin`). Credits (`deposit`) or debits (`withdrawal`) a tenant's account and answers the ledger entry. `reference` is unique per tenant: the same transfer again answers the first entry (200), never a second credit.
         *
         *     Requires the scope `accounts:write`.
         */
        post: operations["createTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Your tenant's webhooks, oldest first, without their secrets.
         *
         *     Requires the scope `webhooks:read`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Your tenant's events of the types named are POSTed to `url`, signed, in sequence order, from the next event committed (docs/webhooks.md). At most 10 per tenant. The answer carries `secret`, shown only here and on rotation.
         *
         *     Requires the scope `webhooks:write`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/webhooks/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook
         * @description Requires the scope `webhooks:read`.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deliveries stop, and its delivery attempts go with it.
         *
         *     Requires the scope `webhooks:write`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook
         * @description `url`, `events`, `description`, `is_active`: what is given changes. `is_active: false` pauses deliveries; `true` resumes a paused or disabled webhook from the event it stopped at.
         *
         *     Requires the scope `webhooks:write`.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/exchange/v1/webhooks/{uid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's delivery attempts
         * @description Every attempt, newest first: the event, the try, what the receiver answered and when the next try is.
         *
         *     Requires the scope `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/webhooks/{uid}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver again from a sequence
         * @description Every wanted event of the tenant stream after `after` is delivered again, in order, and a disabled webhook resumes. `after` past the stream is 422; events no longer kept are 410 `events_expired`.
         *
         *     Requires the scope `webhooks:write`.
         */
        post: operations["replayWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/webhooks/{uid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook's secret
         * @description A new secret, shown only here. For 24 h deliveries carry two signatures in `webhook-signature`, by the new secret and by the one it replaces, so a receiver can switch without refusing one.
         *
         *     Requires the scope `webhooks:write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List withdrawals
         * @description Your tenant's withdrawals, optionally of one `status` or `currency` (admins: every tenant's, or one's with `tenant_id`).
         *
         *     Requires the scope `accounts:read`.
         */
        get: operations["listWithdrawals"];
        put?: never;
        /**
         * Request a withdrawal
         * @description Asks to pay `amount` out to one of your tenant's destinations in that currency. The amount is held at once (available drops, hold rises) until an admin approves (it is paid: a `withdrawal` ledger entry), rejects it or you cancel it. `reference` is unique per tenant: the same request again answers the first withdrawal (200), never a second hold.
         *
         *     Requires the scope `accounts:withdraw`.
         */
        post: operations["requestWithdrawal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/withdrawals/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One withdrawal
         * @description Requires the scope `accounts:read`.
         */
        get: operations["getWithdrawal"];
        put?: never;
        post?: never;
        /**
         * Cancel a withdrawal
         * @description Takes back your tenant's pending withdrawal: its hold is released.
         *
         *     Requires the scope `accounts:withdraw`.
         */
        delete: operations["cancelWithdrawal"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/withdrawals/{uid}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a withdrawal
         * @description Admins only (role `admin`). One approval pays a withdrawal out (`completed`: the `withdrawal` ledger entry, the hold released, in one transaction); at or above the currency's approval threshold two approvals by two different admin clients are needed, the first leaving it `pending`. The client that requested it can never approve it (403).
         *
         *     Requires the scope `accounts:write`.
         */
        post: operations["approveWithdrawal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exchange/v1/withdrawals/{uid}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a withdrawal
         * @description Admins only (role `admin`). Refuses a pending withdrawal: its hold is released and `reason` kept.
         *
         *     Requires the scope `accounts:write`.
         */
        post: operations["rejectWithdrawal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document (under /api)
         * @description OpenAPI 3.1, generated from the schemas the routes validate with. Not counted against a rate limit.
         *
         *     No token needed.
         */
        get: operations["getOpenApiDocumentUnderApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with client credentials
         * @description Opens a new session: the access token's claims, `tokens.access`, `tokens.refresh` and `expires_in`. Earlier sessions of the client stay valid. Attempts are limited per address and per (client id, address).
         *
         *     No token needed.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens
         * @description Consumes the refresh token (it works once) and answers a new pair in the same session. A refresh token presented again after `REFRESH_REUSE_WINDOW` seconds revokes its session.
         *
         *     No token needed.
         */
        post: operations["refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/v1/users/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A client's record
         * @description Your own client: name, tenant, roles and scopes. Any other id is 403 for non-admins, whether or not it exists.
         *
         *     Requires a valid access token.
         */
        get: operations["getClientIdentity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description Your tenant's users (admins: every tenant's, or one with `tenant_id`).
         *
         *     Requires the scope `users:read`.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description In your own tenant. Unknown body fields are ignored.
         *
         *     Requires the scope `users:write`.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/v1/users/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user
         * @description Requires the scope `users:read`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description Swagger UI over this document, from bundled assets: it loads nothing from outside this service. Absent when `DOCS=false`. Not counted against a rate limit.
         *
         *     No token needed.
         */
        get: operations["getDocsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A script or stylesheet of the reference page
         * @description No token needed.
         */
        get: operations["getDocsAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/graphiql/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stylesheet, script or icon of the GraphiQL page
         * @description Named by its content, so cached for good; gzipped when the request accepts it. Absent when `GRAPHIQL=false`. Not counted against a rate limit.
         *
         *     No token needed.
         */
        get: operations["getGraphiQLAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process is up
         * @description No token needed.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description OpenAPI 3.1, generated from the schemas the routes validate with. Not counted against a rate limit.
         *
         *     No token needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database answers
         * @description For load balancers: take the instance out of rotation while it answers 503.
         *
         *     No token needed.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @example {
         *       "currency": "USD",
         *       "balance": "1500.00",
         *       "hold": "250.00",
         *       "available": "1250.00",
         *       "updated_at": "2026-12-04T09:30:00.123456"
         *     }
         */
        Account: {
            /** @example USD */
            currency: string;
            /** @description What the tenant holds at the exchange center. At the currency's precision. */
            balance: components["schemas"]["Decimal"];
            /** @description What its open orders hold of the balance. At the currency's precision. */
            hold: components["schemas"]["Decimal"];
            /** @description `balance − hold`: what new orders and withdrawals may use. At the currency's precision. */
            available: components["schemas"]["Decimal"];
            /** @description The last change; null for an account never used. */
            updated_at: components["schemas"]["Timestamp"] | null;
        };
        AccountList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "currency": {
             *         "en": "Currency"
             *       },
             *       "balance": {
             *         "en": "Balance"
             *       },
             *       "hold": {
             *         "en": "Hold"
             *       }
             *     }
             */
            heads: {
                currency: components["schemas"]["Head"];
                balance: components["schemas"]["Head"];
                hold: components["schemas"]["Head"];
                available: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
            };
            items: components["schemas"]["Account"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /** @description The order's new total quantity (above what has filled), its new price, its new `stop_price` (a pending stop order only), or any of them, under the symbol's rules. A smaller quantity at the same price keeps the order's place in its level; a new price or a larger quantity sends it to the back of its level, and it may trade at once. */
        AmendOrderRequest: {
            quantity?: string | null;
            price?: string | null;
            stop_price?: string | null;
        };
        ApproveWithdrawalInput: {
            /** @example Matches the payout instruction */
            reason?: string;
        };
        AuditRecord: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            /**
             * @description What was done: `client.create`, `auth.login`, `auth.login_failed`, …
             * @example client.create
             */
            action: string;
            /** @description The client that acted (null `client_id` when a failed login named no client), or `{"cli": true}` for an operator. */
            actor: {
                client_id: string | null;
                tenant_id: string | null;
            } | {
                /** @constant */
                cli: true;
            };
            /** @description What the action was done to. */
            target: {
                type: string;
                id: string | null;
            } | null;
            /** @description The caller's address (null for the CLI). */
            ip: string | null;
            request_id: string | null;
            /** @enum {string} */
            outcome: "ok" | "denied" | "failed";
            /** @description What else is known; folded records carry `count`, `first_at` and `last_at`. Never a secret or token. */
            details: {
                [key: string]: unknown;
            };
            /** @description SHA-256 over the record and the previous record's hash (hex). */
            hash: string;
        };
        AuditRecordList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       },
             *       "action": {
             *         "en": "Action"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                action: components["schemas"]["Head"];
                actor: components["schemas"]["Head"];
                target: components["schemas"]["Head"];
                ip: components["schemas"]["Head"];
                request_id: components["schemas"]["Head"];
                outcome: components["schemas"]["Head"];
                details: components["schemas"]["Head"];
                hash: components["schemas"]["Head"];
            };
            items: components["schemas"]["AuditRecord"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @description `error` is `bad_request`; `detail` repeats `message`.
         * @example {
         *       "message": "Text must be valid Unicode without NUL characters",
         *       "error": "bad_request",
         *       "detail": "Text must be valid Unicode without NUL characters"
         *     }
         */
        BadRequestError: {
            message: string;
            /** @constant */
            error: "bad_request";
            detail: string;
        };
        BalanceEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /** @constant */
            type: "balance";
            created_at: components["schemas"]["Timestamp"];
            /** @description The account as the change left it. */
            account: components["schemas"]["Account"];
            /** @description The change's (last) ledger entry of this account; null when only its hold changed. */
            entry: components["schemas"]["LedgerEntry"] | null;
            order: null;
            fill: null;
        };
        /**
         * @description `error` is `Unauthorized`; `detail` repeats `message`.
         * @example {
         *       "message": "No token provided",
         *       "error": "Unauthorized",
         *       "detail": "No token provided"
         *     }
         */
        BearerTokenFailure: {
            message: components["schemas"]["TokenFailureMessage"];
            /** @constant */
            error: "Unauthorized";
            detail: components["schemas"]["TokenFailureMessage"];
        };
        BookEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /** @constant */
            type: "book";
            created_at: components["schemas"]["Timestamp"];
            book: components["schemas"]["BookLevelChange"];
        };
        BookLevel: {
            price: components["schemas"]["Decimal"];
            /** @description What rests at this price, over all orders. */
            quantity: components["schemas"]["Decimal"];
            /** @description How many orders rest at this price. */
            orders: number;
        };
        BookLevelChange: {
            /**
             * @description `buy`: a bid level; `sell`: an ask level.
             * @enum {string}
             */
            side: "buy" | "sell";
            price: components["schemas"]["Decimal"];
            /** @description The level's new total; "0" removes the level. */
            quantity: components["schemas"]["Decimal"];
            /** @description Orders now resting at this price. */
            orders: number;
            /** @description CRC-32 (unsigned) of the book as this change leaves it: its best 10 asks then best 10 bids (docs/api.md, "Book integrity"). Absent only from events written before checksums existed. */
            checksum?: number;
        };
        CancelAfter: {
            /** @description When the open orders and pending stops will be cancelled (UTC); null when disarmed. */
            deadline: components["schemas"]["Timestamp"] | null;
        };
        /** @description Whole seconds, 0 to 600: unless called again before then, every open order and pending stop order of your tenant is cancelled (`cancel_reason: "deadline"`) within 1 s after. 0 disarms. */
        CancelAfterRequest: {
            timeout_seconds: number;
        };
        CancelledOrders: {
            /** @description How many orders were cancelled. */
            cancelled: number;
            /** @description The cancelled orders, by symbol, in acceptance order. */
            items: components["schemas"]["Order"][];
        };
        Candle: {
            /** @description The interval's first instant. */
            open_time: components["schemas"]["Timestamp"];
            /** @description The interval's last microsecond (the next one opens right after). */
            close_time: components["schemas"]["Timestamp"];
            /** @description The interval's first trade price. */
            open: components["schemas"]["Decimal"];
            high: components["schemas"]["Decimal"];
            low: components["schemas"]["Decimal"];
            /** @description The interval's latest trade price. */
            close: components["schemas"]["Decimal"];
            /** @description Base quantity traded. */
            volume: components["schemas"]["Decimal"];
            /** @description Σ price × quantity, in the quote currency. */
            quote_volume: components["schemas"]["Decimal"];
            trade_count: number;
        };
        CandleEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /** @constant */
            type: "candle";
            created_at: components["schemas"]["Timestamp"];
            candle: components["schemas"]["CandleUpdate"];
        };
        CandleList: {
            /** @example USD-IRR */
            symbol: string;
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
            /** @description Oldest first; intervals without trades are left out; the newest may still be open. */
            items: components["schemas"]["Candle"][];
        };
        /** @description The 1m candle as the trade left it: replace the candle with the same `open_time`, or append it. */
        CandleUpdate: {
            /** @constant */
            interval: "1m";
            /** @description The interval's first instant. */
            open_time: components["schemas"]["Timestamp"];
            /** @description The interval's last microsecond (the next one opens right after). */
            close_time: components["schemas"]["Timestamp"];
            /** @description The interval's first trade price. */
            open: components["schemas"]["Decimal"];
            high: components["schemas"]["Decimal"];
            low: components["schemas"]["Decimal"];
            /** @description The interval's latest trade price. */
            close: components["schemas"]["Decimal"];
            /** @description Base quantity traded. */
            volume: components["schemas"]["Decimal"];
            /** @description Σ price × quantity, in the quote currency. */
            quote_volume: components["schemas"]["Decimal"];
            trade_count: number;
        };
        ClientIdentity: {
            /** @description The client id. */
            uid: components["schemas"]["Uuid"];
            name: string;
            tenant_id: components["schemas"]["Uuid"];
            /**
             * @example [
             *       "client"
             *     ]
             */
            roles: string[];
            /**
             * @example [
             *       "symbols:read",
             *       "orders:read",
             *       "orders:write",
             *       "users:read",
             *       "users:write"
             *     ]
             */
            scopes: string[];
            is_active: boolean;
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
        };
        /**
         * @description `error` is `conflict`; `detail` repeats `message`.
         * @example {
         *       "message": "Order is already cancelled",
         *       "error": "conflict",
         *       "detail": "Order is already cancelled"
         *     }
         */
        ConflictError: {
            message: string;
            /** @constant */
            error: "conflict";
            detail: string;
        };
        /** @description Decimals are JSON strings (at most 40 characters). `price` is required for limit and stop-limit orders and refused for market and stop-market orders. `stop_price` (a multiple of the tick size) is required for `stop_limit` and `stop_market` orders and refused for others: they are `pending` until a trade prints at or above it (buys) or at or below it (sells). `time_in_force` is `gtc` (the default for limit orders), `ioc`, `fok` or `gtd`; market and stop-market orders are `ioc`. `gtd` needs `expire_at` (ISO 8601 with a zone, in the future, at most 90 days ahead): the order is cancelled `expired` within a second of it. `post_only: true` (limit `gtc` or `gtd` orders only) cancels the order rather than let it trade on arrival. `client_order_id` (1–64 printable ASCII characters, unique per tenant) makes a retry safe: the same body again answers the existing order (200), a different one 409. */
        CreateOrderRequest: {
            client_order_id?: string | null;
            symbol: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @enum {string} */
            type: "limit" | "market" | "stop_limit" | "stop_market";
            quantity: string;
            price?: string | null;
            time_in_force?: ("gtc" | "ioc" | "fok" | "gtd") | null;
            post_only?: boolean | null;
            stop_price?: string | null;
            expire_at?: string | null;
        };
        CreateUserRequest: {
            /**
             * @description Unique in the tenant, ignoring case.
             * @example alice.k
             */
            username: string;
            /**
             * @description A plain `local@domain.tld` address; its domain is stored lower-cased.
             * @example alice@bank.example
             */
            email: string;
        };
        /**
         * @example {
         *       "name": {
         *         "fa": "دلار آمریکا",
         *         "en": "US Dollar"
         *       },
         *       "symbol": "USD",
         *       "precision": 2,
         *       "icon": "/icons/usd.svg",
         *       "is_crypto": false,
         *       "color": "#3c3b6e",
         *       "unit_value_irr": 1050000
         *     }
         */
        CurrencyProperty: {
            name: {
                fa: string;
                en: string;
            };
            /** @description Currency code. */
            symbol: string;
            precision: number;
            /** @description URL of the currency's icon. */
            icon: string;
            is_crypto: boolean;
            color: string;
            /** @description Value of one unit in rials (1 for the rial). */
            unit_value_irr: number;
        };
        /**
         * @description An exact decimal number as text (never a JSON number); trailing zeros are kept as stored.
         * @example 0.0100
         */
        Decimal: string;
        Destination: {
            uid: components["schemas"]["Uuid"];
            tenant_id: components["schemas"]["Uuid"];
            /** @example IRR */
            currency: string;
            label: string;
            /**
             * @description Upper case, without spaces.
             * @example IR062960000000100324200001
             */
            iban: string;
            created_at: components["schemas"]["Timestamp"];
        };
        DestinationInput: {
            /** Format: uuid */
            tenant_id: string;
            /** @example USD */
            currency: string;
            /** @example Operating account at Bank Melli */
            label: string;
            /**
             * @description An IBAN (ISO 13616, mod-97 checked; spaces allowed) or an Iranian Sheba: `IR` and 24 digits. Stored upper case without spaces.
             * @example IR062960000000100324200001
             */
            iban: string;
        };
        DestinationList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "tenant_id": {
             *         "en": "Tenant ID"
             *       },
             *       "currency": {
             *         "en": "Currency"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                tenant_id: components["schemas"]["Head"];
                currency: components["schemas"]["Head"];
                label: components["schemas"]["Head"];
                iban: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
            };
            items: components["schemas"]["Destination"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @example {
         *       "message": "DPoP proof is missing",
         *       "error": "invalid_dpop_proof",
         *       "detail": "DPoP proof is missing"
         *     }
         */
        DpopProofFailure: {
            message: string;
            /** @constant */
            error: "invalid_dpop_proof";
            detail: string;
        };
        /**
         * @description `error` is `events_expired`; `detail` repeats `message`.
         * @example {
         *       "message": "Events after 12 are no longer kept (7 days); the oldest kept is 5230",
         *       "error": "events_expired",
         *       "detail": "Events after 12 are no longer kept (7 days); the oldest kept is 5230"
         *     }
         */
        EventsExpiredError: {
            message: string;
            /** @constant */
            error: "events_expired";
            detail: string;
        };
        Fill: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            /** @description The order of your tenant this fill belongs to. */
            order_uid: components["schemas"]["Uuid"];
            /** @description The trade: the same trade seen from the other order is a fill of the other side. */
            trade_uid: components["schemas"]["Uuid"];
            /** @example USD-IRR */
            symbol: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /**
             * @description `maker`: the order rested in the book; `taker`: it crossed the book.
             * @enum {string}
             */
            role: "maker" | "taker";
            /** @description The maker's price. */
            price: components["schemas"]["Decimal"];
            quantity: components["schemas"]["Decimal"];
            /** @description What your order paid for this fill, at the fee currency's places: its `fee` ledger entry negated (`0` when the rate was zero). */
            fee: components["schemas"]["Decimal"];
            /**
             * @description The symbol's quote currency, in which every fee is paid.
             * @example IRR
             */
            fee_currency: string;
            /**
             * @description `maker` (added liquidity: paid the maker rate) or `taker` (took it: the taker rate); the same as `role`.
             * @enum {string}
             */
            liquidity: "maker" | "taker";
        };
        FillList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       },
             *       "order_uid": {
             *         "en": "Order UID"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                order_uid: components["schemas"]["Head"];
                trade_uid: components["schemas"]["Head"];
                symbol: components["schemas"]["Head"];
                side: components["schemas"]["Head"];
                role: components["schemas"]["Head"];
                price: components["schemas"]["Head"];
                quantity: components["schemas"]["Head"];
                fee: components["schemas"]["Head"];
                fee_currency: components["schemas"]["Head"];
                liquidity: components["schemas"]["Head"];
            };
            items: components["schemas"]["Fill"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @description `error` is `gateway_timeout`; `detail` repeats `message`.
         * @example {
         *       "message": "The database did not answer in time",
         *       "error": "gateway_timeout",
         *       "detail": "The database did not answer in time"
         *     }
         */
        GatewayTimeoutError: {
            message: string;
            /** @constant */
            error: "gateway_timeout";
            detail: string;
        };
        /**
         * @description A display label of a field.
         * @example {
         *       "en": "Created At"
         *     }
         */
        Head: {
            en: string;
        };
        /**
         * @description `error` is `internal_error`; `detail` repeats `message`.
         * @example {
         *       "message": "Internal server error",
         *       "error": "internal_error",
         *       "detail": "Internal server error"
         *     }
         */
        InternalError: {
            /** @constant */
            message: "Internal server error";
            /** @constant */
            error: "internal_error";
            /** @constant */
            detail: "Internal server error";
        };
        Jwks: {
            keys: components["schemas"]["PublicJwk"][];
        };
        LedgerEntry: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            tenant_id: components["schemas"]["Uuid"];
            /** @example USD */
            currency: string;
            /** @description Signed: credits are positive, debits negative. At the currency's precision. */
            amount: components["schemas"]["Decimal"];
            /** @description The account's balance after this entry. At the currency's precision. */
            balance_after: components["schemas"]["Decimal"];
            /**
             * @description `deposit`, `withdrawal` (transfers), `trade` (a fill), `fee` (the fee of a fill).
             * @enum {string}
             */
            kind: "deposit" | "withdrawal" | "trade" | "fee";
            /** @description The order of a `trade` or `fee` entry; null for transfers. */
            order_uid: components["schemas"]["Uuid"] | null;
            /** @description The trade of a `trade` or `fee` entry; null for transfers. */
            trade_uid: components["schemas"]["Uuid"] | null;
            /** @description A transfer's reference; null for trades and fees. */
            reference: string | null;
        };
        LedgerEntryList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       },
             *       "tenant_id": {
             *         "en": "Tenant ID"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                tenant_id: components["schemas"]["Head"];
                currency: components["schemas"]["Head"];
                amount: components["schemas"]["Head"];
                balance_after: components["schemas"]["Head"];
                kind: components["schemas"]["Head"];
                order_uid: components["schemas"]["Head"];
                trade_uid: components["schemas"]["Head"];
                reference: components["schemas"]["Head"];
            };
            items: components["schemas"]["LedgerEntry"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @example {
         *       "status": "ok"
         *     }
         */
        Liveness: {
            /** @constant */
            status: "ok";
        };
        /**
         * @example {
         *       "message": {
         *         "en": "Authentication failed"
         *       },
         *       "error": "invalid_credentials",
         *       "detail": "Authentication failed"
         *     }
         */
        LoginFailure: {
            message: {
                /** @constant */
                en: "Authentication failed";
            };
            /** @constant */
            error: "invalid_credentials";
            /** @constant */
            detail: "Authentication failed";
        };
        /**
         * @example {
         *       "client_id": "<CLIENT_ID>",
         *       "client_secret": "<CLIENT_SECRET>"
         *     }
         */
        LoginRequest: {
            /** @description Issued by the exchange center (a UUID). */
            client_id: string;
            /** @description Issued with the client id; shown once. */
            client_secret: string;
        };
        LoginResponse: {
            /**
             * @description Issuer: the base address of the service.
             * @example https://exchange.example
             */
            iss: string;
            /** @description The client id. */
            sub: components["schemas"]["Uuid"];
            /** @description Audience (`TOKEN_AUDIENCE`, by default the issuer). */
            aud: string;
            /**
             * @description Issued at, Unix seconds.
             * @example 1764106200
             */
            iat: number;
            /**
             * @description Expiry, Unix seconds.
             * @example 1764106800
             */
            exp: number;
            /** @description Unique token id. */
            jti: components["schemas"]["Uuid"];
            /**
             * @description `DPoP` when the tokens are bound to a DPoP key (docs/dpop.md), else the claim `access`.
             * @enum {string}
             */
            token_type: "access" | "DPoP";
            session_id: components["schemas"]["Uuid"];
            tenant_id: components["schemas"]["Uuid"];
            /**
             * @example [
             *       "client"
             *     ]
             */
            roles: string[];
            /**
             * @example [
             *       "symbols:read",
             *       "orders:read",
             *       "orders:write",
             *       "users:read",
             *       "users:write"
             *     ]
             */
            scopes: string[];
            /**
             * @example [
             *       "client_secret"
             *     ]
             */
            amr: string[];
            /** @description Equals `sub` (RFC 9068). */
            client_id: components["schemas"]["Uuid"];
            /** @description The DPoP key the tokens are bound to, by RFC 7638 thumbprint (docs/dpop.md): only for clients that require DPoP. */
            cnf?: {
                jkt: string;
            };
            tokens: components["schemas"]["TokenSet"];
            /**
             * @description Seconds until the access token expires (`ACCESS_TOKEN_TTL`, 600 by default).
             * @example 600
             */
            expires_in: number;
        };
        MarketEvent: components["schemas"]["TradeEvent"] | components["schemas"]["BookEvent"] | components["schemas"]["CandleEvent"];
        MarketEventList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "sequence": {
             *         "en": "Sequence"
             *       },
             *       "type": {
             *         "en": "Type"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       }
             *     }
             */
            heads: {
                sequence: components["schemas"]["Head"];
                type: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                trade: components["schemas"]["Head"];
                book: components["schemas"]["Head"];
                candle: components["schemas"]["Head"];
            };
            items: components["schemas"]["MarketEvent"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @description `error` is `method_not_allowed`; `detail` repeats `message`.
         * @example {
         *       "message": "Method PUT is not allowed here",
         *       "error": "method_not_allowed",
         *       "detail": "Method PUT is not allowed here"
         *     }
         */
        MethodNotAllowedError: {
            message: string;
            /** @constant */
            error: "method_not_allowed";
            detail: string;
        };
        /**
         * @description `error` is `not_found`; `detail` repeats `message`.
         * @example {
         *       "message": "No route for /api/nope",
         *       "error": "not_found",
         *       "detail": "No route for /api/nope"
         *     }
         */
        NotFoundError: {
            message: string;
            /** @constant */
            error: "not_found";
            detail: string;
        };
        /**
         * @example {
         *       "status": "unavailable",
         *       "database": "unreachable"
         *     }
         */
        NotReady: {
            /** @constant */
            status: "unavailable";
            /** @enum {string} */
            database: "unreachable" | "timeout";
        };
        Order: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
            is_deleted: boolean;
            /** @description Always null so far; reserved by the reference. */
            meta_data: {
                [key: string]: unknown;
            } | null;
            /** @description The client (`sub`) that created the record. */
            user_id: string;
            tenant_id: components["schemas"]["Uuid"];
            /** @description The bank's own id, when it gave one. */
            client_order_id: string | null;
            /** @example USD-IRR */
            symbol: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /** @enum {string} */
            type: "limit" | "market" | "stop_limit" | "stop_market";
            quantity: components["schemas"]["Decimal"];
            /** @description Null for market and stop-market orders. */
            price: components["schemas"]["Decimal"] | null;
            /**
             * @description `pending`: a stop order no trade has triggered yet; then as any order.
             * @enum {string}
             */
            status: "open" | "partially_filled" | "filled" | "cancelled" | "pending";
            filled_quantity: components["schemas"]["Decimal"];
            /** @description The volume-weighted price of its fills (price precision + 8 places); null before the first fill. */
            average_price: components["schemas"]["Decimal"] | null;
            /** @description Why it was cancelled: `user` (a cancel request), `unfilled` (what an `ioc` or market order could not fill in its pass, or a `fok` order that could not fill entirely), `self_trade` (it would have traded with its own tenant), `post_only` (a post-only order that would have traded), `deadline` (the cancel-after deadline of its tenant passed), `expired` (a `gtd` order whose `expire_at` passed). Null unless cancelled. */
            cancel_reason: ("user" | "unfilled" | "self_trade" | "post_only" | "deadline" | "expired") | null;
            /**
             * @description `gtc` (limit orders by default), `ioc` (market and stop-market orders always), `fok`, or `gtd` (until `expire_at`).
             * @enum {string}
             */
            time_in_force: "gtc" | "ioc" | "fok" | "gtd";
            /** @description Cancelled (`post_only`) rather than trade on arrival. */
            post_only: boolean;
            /** @description Stop orders: the trade price that triggers them; null for others. */
            stop_price: components["schemas"]["Decimal"] | null;
            /** @description `gtd` orders: when they are cancelled `expired` (UTC); null for others. */
            expire_at: components["schemas"]["Timestamp"] | null;
        };
        OrderBook: {
            /** @example USD-IRR */
            symbol: string;
            /** @description The market sequence this snapshot reflects: apply the market events after it. */
            sequence: number;
            /**
             * @description CRC-32 (unsigned) of the best 10 asks then the best 10 bids as `price:quantity`, each side joined by `,`, the sides by `|` (of the grouped levels when `group` is given; docs/api.md, "Book integrity"). Whatever `depth`.
             * @example 2343686810
             */
            checksum: number;
            /** @description Buy levels, highest price first. */
            bids: components["schemas"]["BookLevel"][];
            /** @description Sell levels, lowest price first. */
            asks: components["schemas"]["BookLevel"][];
        };
        OrderChangeEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /**
             * @description `order.created`, `order.updated` (filled, partially filled or cancelled), `fill`.
             * @enum {string}
             */
            type: "order.created" | "order.updated" | "fill";
            created_at: components["schemas"]["Timestamp"];
            /** @description The order as the change left it. */
            order: components["schemas"]["Order"];
            /** @description The fill of a `fill` event; null otherwise. */
            fill: components["schemas"]["Fill"] | null;
        };
        OrderEvent: components["schemas"]["OrderChangeEvent"] | components["schemas"]["BalanceEvent"] | components["schemas"]["WithdrawalEvent"];
        OrderEventList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "sequence": {
             *         "en": "Sequence"
             *       },
             *       "type": {
             *         "en": "Type"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       }
             *     }
             */
            heads: {
                sequence: components["schemas"]["Head"];
                type: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                order: components["schemas"]["Head"];
                fill: components["schemas"]["Head"];
                account: components["schemas"]["Head"];
                entry: components["schemas"]["Head"];
                withdrawal: components["schemas"]["Head"];
            };
            items: components["schemas"]["OrderEvent"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        OrderList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "created_at": {
             *         "en": "Created At"
             *       },
             *       "updated_at": {
             *         "en": "Updated At"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
                is_deleted: components["schemas"]["Head"];
                meta_data: components["schemas"]["Head"];
                user_id: components["schemas"]["Head"];
                tenant_id: components["schemas"]["Head"];
                client_order_id: components["schemas"]["Head"];
                symbol: components["schemas"]["Head"];
                side: components["schemas"]["Head"];
                type: components["schemas"]["Head"];
                quantity: components["schemas"]["Head"];
                price: components["schemas"]["Head"];
                status: components["schemas"]["Head"];
                filled_quantity: components["schemas"]["Head"];
                average_price: components["schemas"]["Head"];
                cancel_reason: components["schemas"]["Head"];
                time_in_force: components["schemas"]["Head"];
                post_only: components["schemas"]["Head"];
                stop_price: components["schemas"]["Head"];
                expire_at: components["schemas"]["Head"];
            };
            items: components["schemas"]["Order"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        OrderValidation: {
            /** @constant */
            valid: true;
        };
        /**
         * @description `error` is `payload_too_large`; `detail` repeats `message`.
         * @example {
         *       "message": "Request body is too large",
         *       "error": "payload_too_large",
         *       "detail": "Request body is too large"
         *     }
         */
        PayloadTooLargeError: {
            /** @constant */
            message: "Request body is too large";
            /** @constant */
            error: "payload_too_large";
            /** @constant */
            detail: "Request body is too large";
        };
        /**
         * @description `error` is `permission_denied`; `detail` repeats `message`.
         * @example {
         *       "message": "Access denied: requires orders:write",
         *       "error": "permission_denied",
         *       "detail": "Access denied: requires orders:write"
         *     }
         */
        PermissionDenied: {
            message: string;
            /** @constant */
            error: "permission_denied";
            detail: string;
        };
        PublicJwk: {
            /** @constant */
            kty: "OKP";
            /** @constant */
            crv: "Ed25519";
            /** @description The public key, base64url. */
            x: string;
            /** @description Key id, the `kid` of token headers (the JWK thumbprint). */
            kid: string;
            /** @constant */
            alg: "EdDSA";
            /** @constant */
            use: "sig";
        };
        /**
         * @description `error` is `rate_limited`; `detail` repeats `message`.
         * @example {
         *       "message": "Too many requests",
         *       "error": "rate_limited",
         *       "detail": "Too many requests"
         *     }
         */
        RateLimitedError: {
            message: string;
            /** @constant */
            error: "rate_limited";
            detail: string;
        };
        /**
         * @example {
         *       "status": "ok",
         *       "database": "ok"
         *     }
         */
        Ready: {
            /** @constant */
            status: "ok";
            /** @constant */
            database: "ok";
        };
        /**
         * @example {
         *       "message": "JWT has an invalid format",
         *       "error": "Unauthorized",
         *       "detail": "JWT has an invalid format"
         *     }
         */
        RefreshFailure: {
            /** @constant */
            message: "JWT has an invalid format";
            /** @constant */
            error: "Unauthorized";
            /** @constant */
            detail: "JWT has an invalid format";
        };
        /**
         * @example {
         *       "refresh_token": "<REFRESH_TOKEN>"
         *     }
         */
        RefreshRequest: {
            /** @description The `tokens.refresh` of the last login or refresh; usable once. */
            refresh_token: string;
        };
        RefreshResponse: {
            /** @constant */
            status: "refreshed";
            tokens: components["schemas"]["TokenSet"];
            /**
             * @description Seconds until the access token expires (`ACCESS_TOKEN_TTL`, 600 by default).
             * @example 600
             */
            expires_in: number;
            /**
             * @description Present when the tokens are bound to a DPoP key (docs/dpop.md).
             * @constant
             */
            token_type?: "DPoP";
        };
        RejectWithdrawalInput: {
            /** @example Destination not confirmed by phone */
            reason: string;
        };
        ServerTime: {
            /** @description The server's clock (UTC, as every timestamp of the API). */
            server_time: components["schemas"]["Timestamp"];
            /**
             * @description The same instant in milliseconds since 1970-01-01T00:00:00Z.
             * @example 1764106200123
             */
            epoch_ms: number;
        };
        /**
         * @description `error` is `service_unavailable`; `detail` repeats `message`.
         * @example {
         *       "message": "The service is temporarily unavailable",
         *       "error": "service_unavailable",
         *       "detail": "The service is temporarily unavailable"
         *     }
         */
        ServiceUnavailableError: {
            message: string;
            /** @constant */
            error: "service_unavailable";
            detail: string;
        };
        Statement: {
            tenant_id: components["schemas"]["Uuid"];
            /** @example USD */
            currency: string;
            /** @description The period’s start (included), UTC. */
            from: components["schemas"]["Timestamp"];
            /** @description The period’s end (excluded), UTC. */
            to: components["schemas"]["Timestamp"];
            /** @description The balance at `from`: every entry before it. At the currency's precision. */
            opening_balance: components["schemas"]["Decimal"];
            /** @description The balance at `to`: opening + credits − debits. At the currency's precision. */
            closing_balance: components["schemas"]["Decimal"];
            /** @description The sum of the period’s positive entries. At the currency's precision. */
            total_credits: components["schemas"]["Decimal"];
            /** @description The sum of the period’s negative entries, as a positive amount. At the currency's precision. */
            total_debits: components["schemas"]["Decimal"];
            entry_count: number;
            /** @description Every entry of the period, oldest first (ties by `uid`). */
            entries: components["schemas"]["LedgerEntry"][];
        };
        Symbol: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
            is_deleted: boolean;
            /** @description Always null so far; reserved by the reference. */
            meta_data: {
                [key: string]: unknown;
            } | null;
            /** @description The client (`sub`) that created the record. */
            user_id: string;
            /**
             * @description `<BASE>-<QUOTE>`.
             * @example USD-IRR
             */
            symbol: string;
            /** @description Decimal places a price may have; may be 0. */
            price_precision: number;
            /** @description Decimal places a quantity may have; negative: a multiple of 10^-p. */
            quantity_precision: number;
            min_order_quantity: components["schemas"]["Decimal"];
            tick_size: components["schemas"]["Decimal"];
            daily_fluctuation_price_limit_percent: components["schemas"]["Decimal"];
            /**
             * @description Percent of a fill's notional the resting (maker) order pays, in the quote currency.
             * @example 0.1
             */
            maker_fee_percent: components["schemas"]["Decimal"];
            /**
             * @description Percent of a fill's notional the arriving (taker) order pays, in the quote currency.
             * @example 0.2
             */
            taker_fee_percent: components["schemas"]["Decimal"];
            /**
             * @description The largest quantity one order may have (an amend too); null: no limit. Beyond it: 422 `value_error.number.not_le`.
             * @example 1000000
             */
            max_order_quantity: components["schemas"]["Decimal"] | null;
            /**
             * @description The smallest price × quantity an order may have, in the quote currency (a market order at the reference price); null: no minimum. Below it: 422 `value_error.min_notional`.
             * @example 10000000
             */
            min_notional: components["schemas"]["Decimal"] | null;
            description: string;
            is_active: boolean;
            /** @description Both currencies of the pair, keyed by code. */
            properties: {
                [key: string]: components["schemas"]["CurrencyProperty"];
            };
        };
        SymbolList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "id": {
             *         "en": "ID"
             *       },
             *       "revision_id": {
             *         "en": "Revision ID"
             *       },
             *       "uid": {
             *         "en": "UID"
             *       }
             *     }
             */
            heads: {
                id: components["schemas"]["Head"];
                revision_id: components["schemas"]["Head"];
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
                is_deleted: components["schemas"]["Head"];
                meta_data: components["schemas"]["Head"];
                user_id: components["schemas"]["Head"];
                symbol: components["schemas"]["Head"];
                price_precision: components["schemas"]["Head"];
                quantity_precision: components["schemas"]["Head"];
                min_order_quantity: components["schemas"]["Head"];
                tick_size: components["schemas"]["Head"];
                daily_fluctuation_price_limit_percent: components["schemas"]["Head"];
                maker_fee_percent: components["schemas"]["Head"];
                taker_fee_percent: components["schemas"]["Head"];
                max_order_quantity: components["schemas"]["Head"];
                min_notional: components["schemas"]["Head"];
                description: components["schemas"]["Head"];
                is_active: components["schemas"]["Head"];
            };
            items: components["schemas"]["Symbol"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        Ticker: {
            /** @example USD-IRR */
            symbol: string;
            /** @description The symbol's latest trade price, however long ago; null before its first trade. */
            last_price: components["schemas"]["Decimal"] | null;
            /** @description The window's first trade price; null while nothing traded in the window. */
            open_price: components["schemas"]["Decimal"] | null;
            /** @description The window's highest trade price; null while nothing traded in it. */
            high_price: components["schemas"]["Decimal"] | null;
            /** @description The window's lowest trade price; null while nothing traded in it. */
            low_price: components["schemas"]["Decimal"] | null;
            /** @description Base quantity traded in the window. */
            volume: components["schemas"]["Decimal"];
            /** @description Σ price × quantity of the window’s trades, in the quote currency. */
            quote_volume: components["schemas"]["Decimal"];
            /** @description The window's last trade price less its first; null while nothing traded in it. */
            price_change: components["schemas"]["Decimal"] | null;
            /** @description `price_change` as a percent of `open_price`, 2 places; null while nothing traded in the window. */
            price_change_percent: components["schemas"]["Decimal"] | null;
            /** @description Trades in the window. */
            trade_count: number;
            /** @description The highest resting buy price; null when no buy rests. */
            best_bid: components["schemas"]["Decimal"] | null;
            /** @description The lowest resting sell price; null when no sell rests. */
            best_ask: components["schemas"]["Decimal"] | null;
            /** @description Today's reference price (the daily price band's centre); null until one is set or rolled. */
            reference_price: components["schemas"]["Decimal"] | null;
            /** @description The first instant counted: the start of the minute 23 h 59 min before the current one. */
            window_start: components["schemas"]["Timestamp"];
            /** @description The time of the request: every trade committed before it is counted. */
            window_end: components["schemas"]["Timestamp"];
        };
        TickerList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "symbol": {
             *         "en": "Symbol"
             *       },
             *       "last_price": {
             *         "en": "Last Price"
             *       },
             *       "open_price": {
             *         "en": "Open Price"
             *       }
             *     }
             */
            heads: {
                symbol: components["schemas"]["Head"];
                last_price: components["schemas"]["Head"];
                open_price: components["schemas"]["Head"];
                high_price: components["schemas"]["Head"];
                low_price: components["schemas"]["Head"];
                volume: components["schemas"]["Head"];
                quote_volume: components["schemas"]["Head"];
                price_change: components["schemas"]["Head"];
                price_change_percent: components["schemas"]["Head"];
                trade_count: components["schemas"]["Head"];
                best_bid: components["schemas"]["Head"];
                best_ask: components["schemas"]["Head"];
                reference_price: components["schemas"]["Head"];
                window_start: components["schemas"]["Head"];
                window_end: components["schemas"]["Head"];
            };
            items: components["schemas"]["Ticker"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * @description UTC date and time without a zone suffix, exactly 6 fraction digits (microseconds). Not RFC 3339 `date-time`, which requires a zone.
         * @example 2026-11-25T21:30:00.123456
         */
        Timestamp: string;
        /**
         * @example {
         *       "message": "No token provided",
         *       "error": "Unauthorized",
         *       "detail": "No token provided"
         *     }
         */
        TokenFailure: components["schemas"]["BearerTokenFailure"] | components["schemas"]["DpopProofFailure"];
        /** @enum {string} */
        TokenFailureMessage: "No token provided" | "JWT has an invalid format" | "JWT has expired" | "JWT signature is invalid" | "JWT has been revoked";
        TokenSet: {
            /**
             * @description The access token (Ed25519-signed JWT, `typ` `at+jwt`), sent as `Authorization: Bearer <access>`.
             * @example eyJhbGciOiJFZERTQSIsImtpZCI6Ij…
             */
            access: string;
            /**
             * @description The refresh token: opaque to clients, usable once at the refresh endpoint.
             * @example eyJhbGciOiJFZERTQSIsImtpZCI6Ij…
             */
            refresh: string;
        };
        Trade: {
            uid: components["schemas"]["Uuid"];
            /** @example USD-IRR */
            symbol: string;
            /** @description The maker's price. */
            price: components["schemas"]["Decimal"];
            quantity: components["schemas"]["Decimal"];
            /**
             * @description The side of the order that crossed the book.
             * @enum {string}
             */
            taker_side: "buy" | "sell";
            created_at: components["schemas"]["Timestamp"];
            /** @description The symbol's market event sequence (docs/api.md, "Events"). */
            sequence: number;
        };
        TradeEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /** @constant */
            type: "trade";
            created_at: components["schemas"]["Timestamp"];
            trade: components["schemas"]["Trade"];
        };
        TradeList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "symbol": {
             *         "en": "Symbol"
             *       },
             *       "price": {
             *         "en": "Price"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                symbol: components["schemas"]["Head"];
                price: components["schemas"]["Head"];
                quantity: components["schemas"]["Head"];
                taker_side: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                sequence: components["schemas"]["Head"];
            };
            items: components["schemas"]["Trade"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        TransferInput: {
            /** Format: uuid */
            tenant_id: string;
            /** @example USD */
            currency: string;
            /**
             * @description A positive decimal as text, with at most the currency's precision of places.
             * @example 1000.00
             */
            amount: string;
            /** @enum {string} */
            kind: "deposit" | "withdrawal";
            /**
             * @description Unique per tenant: sending the same transfer again answers the entry made the first time.
             * @example wire-2026-12-04-0001
             */
            reference: string;
        };
        /**
         * @description `error` is `unsupported_media_type`; `detail` repeats `message`.
         * @example {
         *       "message": "Content-Type must be application/json",
         *       "error": "unsupported_media_type",
         *       "detail": "Content-Type must be application/json"
         *     }
         */
        UnsupportedMediaTypeError: {
            /** @constant */
            message: "Content-Type must be application/json";
            /** @constant */
            error: "unsupported_media_type";
            /** @constant */
            detail: "Content-Type must be application/json";
        };
        User: {
            uid: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
            is_deleted: boolean;
            /** @description Always null so far; reserved by the reference. */
            meta_data: {
                [key: string]: unknown;
            } | null;
            /** @description The client (`sub`) that created the record. */
            user_id: string;
            tenant_id: components["schemas"]["Uuid"];
            /** @example alice.k */
            username: string;
            /** @example alice@bank.example */
            email: string;
            is_active: boolean;
        };
        UserList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "id": {
             *         "en": "ID"
             *       },
             *       "revision_id": {
             *         "en": "Revision ID"
             *       },
             *       "uid": {
             *         "en": "UID"
             *       }
             *     }
             */
            heads: {
                id: components["schemas"]["Head"];
                revision_id: components["schemas"]["Head"];
                uid: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
                is_deleted: components["schemas"]["Head"];
                meta_data: components["schemas"]["Head"];
                user_id: components["schemas"]["Head"];
                tenant_id: components["schemas"]["Head"];
                username: components["schemas"]["Head"];
                email: components["schemas"]["Head"];
                is_active: components["schemas"]["Head"];
            };
            items: components["schemas"]["User"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        /**
         * Format: uuid
         * @example 5f0c7e4a-3c1b-4a53-9b7e-2f0d6c1a8e44
         */
        Uuid: string;
        ValidationError: {
            detail: components["schemas"]["ValidationIssue"][];
        };
        /**
         * @example {
         *       "type": "value_error.number.not_le",
         *       "loc": [
         *         "query",
         *         "limit"
         *       ],
         *       "msg": "ensure this value is less than or equal to 100",
         *       "input": "101",
         *       "ctx": {
         *         "limit_value": 100
         *       }
         *     }
         */
        ValidationIssue: {
            /** @description What rule was broken: `missing`, `value_error.number.not_le`, `type_error.enum`, `json_invalid`, ... */
            type: string;
            /** @description Where: `["body", "<field>"]`, `["query", "<name>"]`, `["body", <position>]` for JSON that does not parse, or `["body", ...<path>, "<key>"]` for a key given twice in one object (`value_error.json.duplicate_key`). */
            loc: (string | number)[];
            msg: string;
            /** @description The value refused (long text cut short; large structures left out). */
            input?: unknown;
            /** @description The rule's parameters: `limit_value`, `enum_values`, `multiple_of`, `decimal_places`, `pattern`, `error`. */
            ctx?: {
                [key: string]: unknown;
            };
        };
        Webhook: {
            uid: components["schemas"]["Uuid"];
            url: string;
            /**
             * @example [
             *       "order.updated",
             *       "fill"
             *     ]
             */
            events: string[];
            description: string;
            /** @description false: paused, or disabled after its last retry failed (see `disabled_reason`). */
            is_active: boolean;
            /** @description Why deliveries stopped after the last retry; null otherwise. */
            disabled_reason: string | null;
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
        };
        WebhookDelivery: {
            /** @description The event of the tenant stream. */
            event_sequence: number;
            /** @description 1 for the first try of this event, 2 for the first retry, … */
            attempt: number;
            /** @description The receiver's status; null when none came (refused, unreachable, timed out). */
            status_code: number | null;
            duration_ms: number;
            /** @description Why it was not delivered; null for a 2xx. */
            error: string | null;
            created_at: components["schemas"]["Timestamp"];
            /** @description When the event is tried again; null when delivered, or when this was the last try. */
            next_attempt_at: components["schemas"]["Timestamp"] | null;
        };
        WebhookDeliveryList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "event_sequence": {
             *         "en": "Event Sequence"
             *       },
             *       "attempt": {
             *         "en": "Attempt"
             *       },
             *       "status_code": {
             *         "en": "Status Code"
             *       }
             *     }
             */
            heads: {
                event_sequence: components["schemas"]["Head"];
                attempt: components["schemas"]["Head"];
                status_code: components["schemas"]["Head"];
                duration_ms: components["schemas"]["Head"];
                error: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                next_attempt_at: components["schemas"]["Head"];
            };
            items: components["schemas"]["WebhookDelivery"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        WebhookInput: {
            /**
             * @description Where events are POSTed: `https` (plain `http` only where the service allows it), never a private address.
             * @example https://hooks.bank.example/exchange
             */
            url: string;
            /**
             * @description The tenant-stream event types to deliver (at least one); each needs the scope that reads it.
             * @example [
             *       "order.updated",
             *       "fill"
             *     ]
             */
            events: ("order.created" | "order.updated" | "fill" | "balance" | "withdrawal")[];
            /**
             * @description Free text for the bank, at most 500 characters.
             * @default
             * @example Back office: fills
             */
            description: string;
        };
        WebhookList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "url": {
             *         "en": "URL"
             *       },
             *       "events": {
             *         "en": "Events"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                url: components["schemas"]["Head"];
                events: components["schemas"]["Head"];
                description: components["schemas"]["Head"];
                is_active: components["schemas"]["Head"];
                disabled_reason: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
            };
            items: components["schemas"]["Webhook"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
        WebhookReplay: {
            /**
             * @description Deliver again every wanted event after this sequence of the tenant stream, in order.
             * @example 41
             */
            after: number;
        };
        WebhookUpdate: {
            /**
             * @description Where events are POSTed: `https` (plain `http` only where the service allows it), never a private address.
             * @example https://hooks.bank.example/exchange
             */
            url?: string;
            /**
             * @description The tenant-stream event types to deliver (at least one); each needs the scope that reads it.
             * @example [
             *       "order.updated",
             *       "fill"
             *     ]
             */
            events?: ("order.created" | "order.updated" | "fill" | "balance" | "withdrawal")[];
            /**
             * @description Free text for the bank, at most 500 characters.
             * @example Back office: fills
             */
            description?: string;
            /** @description false pauses deliveries; true resumes them where they stopped. */
            is_active?: boolean;
        };
        WebhookWithSecret: {
            uid: components["schemas"]["Uuid"];
            url: string;
            /**
             * @example [
             *       "order.updated",
             *       "fill"
             *     ]
             */
            events: string[];
            description: string;
            /** @description false: paused, or disabled after its last retry failed (see `disabled_reason`). */
            is_active: boolean;
            /** @description Why deliveries stopped after the last retry; null otherwise. */
            disabled_reason: string | null;
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
            /**
             * @description Signs every delivery (Standard Webhooks). Shown only here: store it now.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3nL8H4CmTfs=
             */
            secret: string;
        };
        Withdrawal: {
            uid: components["schemas"]["Uuid"];
            tenant_id: components["schemas"]["Uuid"];
            /** @example IRR */
            currency: string;
            /** @description At the currency's precision. */
            amount: components["schemas"]["Decimal"];
            destination_uid: components["schemas"]["Uuid"];
            reference: string;
            /**
             * @description `pending` (its amount held), then `completed` (paid out: a `withdrawal` ledger entry), `rejected` or `cancelled` (the hold released).
             * @enum {string}
             */
            status: "pending" | "completed" | "rejected" | "cancelled";
            /** @description In order; two are needed at or above the currency's approval threshold. */
            approvals: components["schemas"]["WithdrawalApproval"][];
            created_at: components["schemas"]["Timestamp"];
            updated_at: components["schemas"]["Timestamp"];
            /** @description When it was completed, rejected or cancelled; null while pending. */
            decided_at: components["schemas"]["Timestamp"] | null;
            /** @description Why it was rejected; null otherwise. */
            reason: string | null;
        };
        WithdrawalApproval: {
            /** @description The admin client that approved. */
            client_id: components["schemas"]["Uuid"];
            created_at: components["schemas"]["Timestamp"];
            reason: string | null;
        };
        WithdrawalEvent: {
            /** @description The event's place in its stream: 1, 2, 3, … without gaps. */
            sequence: number;
            /** @constant */
            type: "withdrawal";
            created_at: components["schemas"]["Timestamp"];
            /** @description The withdrawal as the change left it. */
            withdrawal: components["schemas"]["Withdrawal"];
        };
        WithdrawalInput: {
            /** @example USD */
            currency: string;
            /**
             * @description A positive decimal as text, with at most the currency's precision of places.
             * @example 250000000
             */
            amount: string;
            /** Format: uuid */
            destination_uid: string;
            /**
             * @description Unique per tenant: the same request again answers the withdrawal made the first time.
             * @example payout-2026-12-09-0001
             */
            reference: string;
        };
        WithdrawalList: {
            /**
             * @description Display labels keyed by field name.
             * @example {
             *       "uid": {
             *         "en": "UID"
             *       },
             *       "tenant_id": {
             *         "en": "Tenant ID"
             *       },
             *       "currency": {
             *         "en": "Currency"
             *       }
             *     }
             */
            heads: {
                uid: components["schemas"]["Head"];
                tenant_id: components["schemas"]["Head"];
                currency: components["schemas"]["Head"];
                amount: components["schemas"]["Head"];
                destination_uid: components["schemas"]["Head"];
                reference: components["schemas"]["Head"];
                status: components["schemas"]["Head"];
                approvals: components["schemas"]["Head"];
                created_at: components["schemas"]["Head"];
                updated_at: components["schemas"]["Head"];
                decided_at: components["schemas"]["Head"];
                reason: components["schemas"]["Head"];
            };
            items: components["schemas"]["Withdrawal"][];
            /** @description Records matching the filters, over all pages. */
            total: number;
            offset: number;
            limit: number;
        };
    };
    responses: {
        /** @description The database did not answer in time */
        GatewayTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GatewayTimeoutError"];
            };
        };
        /** @description Internal error (logged with the request id; no detail is given) */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InternalError"];
            };
        };
        /** @description The path exists, the method does not; `Allow` lists the methods it has */
        MethodNotAllowed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["MethodNotAllowedError"];
            };
        };
        /** @description No route has this path */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The body is over 1 MiB */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["PayloadTooLargeError"];
            };
        };
        /** @description The database is unreachable; try again after `Retry-After` seconds */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ServiceUnavailableError"];
            };
        };
        /** @description Over a rate limit; nothing was done */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"];
            };
        };
        /** @description Missing, malformed, expired, tampered with or revoked access token */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TokenFailure"];
            };
        };
        /** @description The body is not JSON (`Content-Type` must be `application/json` or `*\/*+json`) */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnsupportedMediaTypeError"];
            };
        };
        /** @description Validation failed: every rule broken, in field order */
        ValidationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Calls allowed per window by the tightest limit this request counted against. */
        "RateLimit-Limit": number;
        /** @description Calls left in the current window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets. */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
        /** @description The request's id: the caller's own `X-Request-Id` when it is 1–128 of `[A-Za-z0-9._:-]`, else a new UUID. Quote it when reporting a problem. */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always: points to `/graphql`, `/api/...` and `/docs` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key set */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": "public, max-age=10";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Jwks"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    listAuditRecords: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "created_at" | "-created_at";
                action?: string;
                actor_client_id?: string;
                target_id?: string;
                outcome?: "ok" | "denied" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit records */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRecordList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `audit:read`; or: The caller is not an admin, or lacks `audit:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    loginLegacy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Logged in */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Answers carrying tokens must not be stored (RFC 6749 §5.1). */
                    "Cache-Control": "no-store";
                    Pragma: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Wrong client id or secret, or an inactive client; or, for a client that requires DPoP, a missing or refused `DPoP` proof */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginFailure"] | components["schemas"]["DpopProofFailure"];
                };
            };
            /** @description The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    refreshLegacy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description New tokens */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Answers carrying tokens must not be stored (RFC 6749 §5.1). */
                    "Cache-Control": "no-store";
                    Pragma: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshResponse"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description An unknown, used, revoked or expired refresh token, an access token, or an inactive client; or, for a DPoP-bound session, a missing or refused `DPoP` proof */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshFailure"] | components["schemas"]["DpopProofFailure"];
                };
            };
            /** @description The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Admins only: another tenant's. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of accounts */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getAccount: {
        parameters: {
            query?: {
                /** @description Admins only: another tenant's. */
                tenant_id?: string;
            };
            header?: never;
            path: {
                /** @description A currency code (case-insensitive). */
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No currency has this code */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getAccountStatement: {
        parameters: {
            query: {
                /** @description Start of the period, included: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                from: string;
                /** @description End of the period, excluded: after `from`, at most 366 days later (ISO 8601 with a zone). */
                to: string;
                /** @description Admins only: another tenant's. */
                tenant_id?: string;
            };
            header?: {
                /** @description `text/csv` for CSV, `application/xml` for ISO 20022 camt.053; anything else answers JSON. */
                accept?: string;
            };
            path: {
                /** @description A currency code (case-insensitive). */
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statement */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Statement"];
                    "text/csv": string;
                    "application/xml": string;
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No currency has this code */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listDestinations: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "created_at" | "-created_at" | "currency" | "-currency" | "label" | "-label";
                /** @description One currency, case-insensitive. */
                currency?: string;
                /** @description Admins only: one tenant's (without it, every tenant's). */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of destinations */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DestinationList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    createDestination: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationInput"];
            };
        };
        responses: {
            /** @description Registered */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:write`; or: The caller is not an admin; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    streamOrderEvents: {
        parameters: {
            query?: {
                /** @description Resume after this sequence: every event after it, in order. Without it a stream starts with the next event committed, and a list with the oldest kept. */
                after?: number;
                limit?: number;
                /** @description Admins only: another tenant's stream. */
                tenant_id?: string;
            };
            header?: {
                /** @description `text/event-stream` for a stream; anything else answers the JSON list. */
                accept?: string;
                /** @description As `after`: the `id` of the last message received (what SSE clients send when they reconnect). */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream, or one page of events */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderEventList"];
                    "text/event-stream": string;
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description `after` is older than the events kept (`EVENT_RETENTION_DAYS`) */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsExpiredError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listFills: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "uid" | "-uid" | "created_at" | "-created_at" | "order_uid" | "-order_uid" | "trade_uid" | "-trade_uid" | "symbol" | "-symbol" | "side" | "-side" | "role" | "-role" | "price" | "-price" | "quantity" | "-quantity";
                symbol?: string;
                side?: "buy" | "sell";
                order_uid?: string;
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of fills */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FillList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listLedger: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "created_at" | "-created_at" | "currency" | "-currency" | "kind" | "-kind" | "amount" | "-amount";
                /** @description One currency, case-insensitive. */
                currency?: string;
                kind?: "deposit" | "withdrawal" | "trade" | "fee";
                /** @description One order's trade and fee entries. */
                order_uid?: string;
                /** @description Admins only: one tenant's entries (without it, every tenant's). */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of ledger entries */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntryList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listOrders: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description Updated at or after (ISO 8601 with a time and a zone). */
                updated_at_from?: string;
                /** @description Updated at or before (ISO 8601 with a time and a zone). */
                updated_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "uid" | "-uid" | "created_at" | "-created_at" | "updated_at" | "-updated_at" | "user_id" | "-user_id" | "tenant_id" | "-tenant_id" | "client_order_id" | "-client_order_id" | "symbol" | "-symbol" | "side" | "-side" | "type" | "-type" | "quantity" | "-quantity" | "price" | "-price" | "status" | "-status" | "filled_quantity" | "-filled_quantity" | "average_price" | "-average_price" | "cancel_reason" | "-cancel_reason" | "time_in_force" | "-time_in_force" | "post_only" | "-post_only" | "stop_price" | "-stop_price" | "expire_at" | "-expire_at";
                symbol?: string;
                side?: string;
                status?: string;
                /** @description The bank's own id of an order: at most one order of a tenant. */
                client_order_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of orders */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrderRequest"];
            };
        };
        responses: {
            /** @description A retry: `client_order_id` names an order placed with the same body, which is answered as it is now */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Placed */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description `client_order_id` names an order placed with a different body */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    cancelOrders: {
        parameters: {
            query?: {
                /** @description Only these symbols: one, or up to 20 comma-separated, case-insensitive (all symbols without it). An unknown symbol is 422 `value_error.symbol` and cancels nothing; an inactive symbol's orders are cancelled. */
                symbol?: string;
                /** @description Only this side (both without it). */
                side?: "buy" | "sell";
                /** @description Admins: required, the tenant whose orders to cancel. Others: their own tenant's, if given. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled orders */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelledOrders"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: Another tenant's orders; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOrderByClientId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The bank's own id of the order (1–64 printable ASCII characters, URL-encoded); anything else names no order (404). */
                client_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description Your tenant has no order with this client_order_id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    cancelOrderByClientId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The bank's own id of the order (1–64 printable ASCII characters, URL-encoded); anything else names no order (404). */
                client_order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description Your tenant has no order with this client_order_id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The order is already filled or cancelled */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    cancelAfter: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelAfterRequest"];
            };
        };
        responses: {
            /** @description The deadline now armed, or null */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelAfter"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    validateOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrderRequest"];
            };
        };
        responses: {
            /** @description Placing this body would be accepted */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderValidation"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description `client_order_id` names an order placed with a different body */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:read`; or: Another tenant's order; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No order has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: Another tenant's order (admins too); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No order has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The order is already filled or cancelled */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    amendOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The order's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AmendOrderRequest"];
            };
        };
        responses: {
            /** @description The order as its pass left it */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `orders:write`; or: Another tenant's order (admins too); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No order has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The order is already filled or cancelled, or its symbol is not active */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listSymbols: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description Updated at or after (ISO 8601 with a time and a zone). */
                updated_at_from?: string;
                /** @description Updated at or before (ISO 8601 with a time and a zone). */
                updated_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "uid" | "-uid" | "created_at" | "-created_at" | "updated_at" | "-updated_at" | "user_id" | "-user_id" | "symbol" | "-symbol" | "price_precision" | "-price_precision" | "quantity_precision" | "-quantity_precision" | "min_order_quantity" | "-min_order_quantity" | "tick_size" | "-tick_size" | "daily_fluctuation_price_limit_percent" | "-daily_fluctuation_price_limit_percent" | "maker_fee_percent" | "-maker_fee_percent" | "taker_fee_percent" | "-taker_fee_percent" | "max_order_quantity" | "-max_order_quantity" | "min_notional" | "-min_notional" | "description" | "-description" | "is_active" | "-is_active";
                /** @description One symbol, case-insensitive. */
                symbol?: string;
                /** @description `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`). */
                is_active?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of symbols */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SymbolList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getSymbol: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The symbol */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Symbol"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOrderBook: {
        parameters: {
            query?: {
                depth?: number;
                /** @description Merge levels by this price step, a multiple of the symbol's tick size: bids into the step at or below their price, asks into the step at or above; quantities and orders are summed. */
                group?: string;
            };
            header?: never;
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The book */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderBook"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listCandles: {
        parameters: {
            query: {
                /** @description The candle length: `1m 5m 15m 1h 4h 1d` (`1d`: the market day of `MARKET_TIMEZONE`). */
                interval: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
                /** @description Candles that opened at or after this (ISO 8601 with a time and a zone). With it, the first `limit` candles from it. */
                from?: string;
                /** @description Candles that opened at or before this (ISO 8601 with a time and a zone). Without `from`, the latest `limit` up to it. */
                to?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The candles */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CandleList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    streamMarketEvents: {
        parameters: {
            query?: {
                /** @description Resume after this sequence: every event after it, in order. Without it a stream starts with the next event committed, and a list with the oldest kept. */
                after?: number;
                limit?: number;
            };
            header?: {
                /** @description `text/event-stream` for a stream; anything else answers the JSON list. */
                accept?: string;
                /** @description As `after`: the `id` of the last message received (what SSE clients send when they reconnect). */
                "last-event-id"?: string;
            };
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream, or one page of events */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketEventList"];
                    "text/event-stream": string;
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description `after` is older than the events kept (`EVENT_RETENTION_DAYS`) */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsExpiredError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getTicker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ticker */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticker"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listTrades: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                /** @description A symbol name, `<BASE>-<QUOTE>`; case-insensitive. */
                symbol: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest trades */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradeList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No symbol has this name */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listTickers: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tickers */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TickerList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `symbols:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getServerTime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The time */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerTime"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    createTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferInput"];
            };
        };
        responses: {
            /** @description A retry: `reference` names the same transfer made before, whose entry is answered */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntry"];
                };
            };
            /** @description Transferred: the new ledger entry */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntry"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:write`; or: The caller is not an admin; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description `reference` names a different transfer of this tenant */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Validation failed: every rule broken, in field order; a withdrawal beyond what is available is `value_error.insufficient_balance` with ctx `currency`, `available`, `required` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of webhooks */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:read`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookInput"];
            };
        };
        responses: {
            /** @description Created, with its signing secret */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description The tenant has 10 webhooks already */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:read`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted webhook */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:write`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The changed webhook */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:write`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of attempts */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:read`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    replayWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookReplay"];
            };
        };
        responses: {
            /** @description The webhook, resuming */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:write`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The events after `after` are no longer kept */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsExpiredError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's uid. */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook with its new secret */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `webhooks:write`; or: Another tenant's webhook; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No webhook has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listWithdrawals: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description Updated at or after (ISO 8601 with a time and a zone). */
                updated_at_from?: string;
                /** @description Updated at or before (ISO 8601 with a time and a zone). */
                updated_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "currency" | "-currency" | "amount" | "-amount" | "status" | "-status";
                status?: "pending" | "completed" | "rejected" | "cancelled";
                /** @description One currency, case-insensitive. */
                currency?: string;
                /** @description Admins only: one tenant's (without it, every tenant's). */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of withdrawals */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: `tenant_id` names another tenant; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    requestWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WithdrawalInput"];
            };
        };
        responses: {
            /** @description A retry: `reference` names the same withdrawal asked for before, which is answered */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Requested: pending, its amount held */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:withdraw`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description `reference` names a different withdrawal of your tenant */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Validation failed: every rule broken, in field order; `value_error.destination` (not one of your tenant's destinations in this currency), then `value_error.withdrawal_limit` (ctx `limit`, `used`: over the tenant's daily limit in the currency) or `value_error.insufficient_balance` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The withdrawal's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The withdrawal */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:read`; or: Another tenant's withdrawal (admins may read any); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No withdrawal has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    cancelWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The withdrawal's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled withdrawal */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:withdraw`; or: Another tenant's withdrawal (admins too); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No withdrawal has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The withdrawal is no longer pending */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    approveWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The withdrawal's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApproveWithdrawalInput"];
            };
        };
        responses: {
            /** @description The withdrawal with this approval: `completed`, or `pending` awaiting a second approval */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:write`; or: The caller is not an admin, or is the client that requested the withdrawal; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No withdrawal has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The withdrawal is no longer pending, or this client already approved it */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    rejectWithdrawal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The withdrawal's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RejectWithdrawalInput"];
            };
        };
        responses: {
            /** @description The rejected withdrawal */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Withdrawal"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `accounts:write`; or: The caller is not an admin; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No withdrawal has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The withdrawal is no longer pending */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOpenApiDocumentUnderApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": "public, max-age=60";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Logged in */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Answers carrying tokens must not be stored (RFC 6749 §5.1). */
                    "Cache-Control": "no-store";
                    Pragma: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Wrong client id or secret, or an inactive client; or, for a client that requires DPoP, a missing or refused `DPoP` proof */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginFailure"] | components["schemas"]["DpopProofFailure"];
                };
            };
            /** @description The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    refresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description New tokens */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Answers carrying tokens must not be stored (RFC 6749 §5.1). */
                    "Cache-Control": "no-store";
                    Pragma: "no-cache";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshResponse"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description An unknown, used, revoked or expired refresh token, an access token, or an inactive client; or, for a DPoP-bound session, a missing or refused `DPoP` proof */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshFailure"] | components["schemas"]["DpopProofFailure"];
                };
            };
            /** @description The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getClientIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A client id: the caller's own (`sub`); admins may read any. */
                client_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The client */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientIdentity"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Another client's id (for non-admins, whether or not it exists); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description Admins only: no client has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
                /** @description Created at or after: ISO 8601 with a time and a zone (`Z` or `±hh:mm`). */
                created_at_from?: string;
                /** @description Created at or before (ISO 8601 with a time and a zone). */
                created_at_to?: string;
                /** @description Updated at or after (ISO 8601 with a time and a zone). */
                updated_at_from?: string;
                /** @description Updated at or before (ISO 8601 with a time and a zone). */
                updated_at_to?: string;
                /** @description A field to sort by; a `-` prefix sorts descending. Ties are broken by `uid`. */
                order_by?: "uid" | "-uid" | "created_at" | "-created_at" | "updated_at" | "-updated_at" | "is_deleted" | "-is_deleted" | "meta_data" | "-meta_data" | "user_id" | "-user_id" | "tenant_id" | "-tenant_id" | "username" | "-username" | "email" | "-email" | "is_active" | "-is_active";
                /** @description Exact username, ignoring case. */
                username?: string;
                /** @description Exact address, ignoring case. */
                email?: string;
                /** @description Admins: one tenant's users. Others may name only their own tenant. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of users */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `users:read`; or: `tenant_id` names another tenant (non-admins); or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `users:write`; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description The username is taken in this tenant (ignoring case) */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConflictError"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's uid (a UUID; anything else is 404). */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Bad request: a body that did not arrive whole, or text the database cannot store (a NUL character) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The token lacks the scope `users:read`; or: Another tenant's user; or: The caller's address is outside its client's allow-list (`Address not allowed`) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionDenied"];
                };
            };
            /** @description No user has this uid */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getDocsPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Content-Security-Policy": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getDocsAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: "swagger-ui-bundle.js" | "swagger-ui.css" | "docs.js";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                };
            };
            /** @description No such asset */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getGraphiQLAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                    "image/x-icon": string;
                };
            };
            /** @description No such asset */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": "public, max-age=60";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ready"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description The database is unreachable or too slow */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotReady"];
                };
            };
        };
    };
}
