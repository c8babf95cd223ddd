import { Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * The service's metrics, on prom-client, each `Metrics` with its own registry (tests run several
 * services in one process). Label values come from fixed sets (route patterns, known methods,
 * status codes), never from raw request data, so the number of series stays bounded whatever
 * callers send.
 */

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export type RateLimitName = 'login_ip' | 'login_client_ip' | 'anon' | 'api'
export type EventStreamEndReason = 'token_expired' | 'token_revoked' | 'resync' | 'shutdown'

export interface PoolCounts {
  total: number
  idle: number
  waiting: number
}

/**
 * Feature code records what only it knows through the named methods (`loginSucceeded`,
 * `loginFailed`, `refreshReuseDetected`); HTTP and rate-limit metrics are recorded by the
 * infrastructure. Counters with labels start every known series at 0, so dashboards see them from
 * the start.
 */
export class Metrics {
  readonly registry = new Registry()
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  })
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to its response headers, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })
  readonly logins = startedAtZero(
    new Counter({ name: 'auth_logins_total', help: 'Login attempts by result.', labelNames: ['result'] as const, registers: [this.registry] }),
    'result',
    ['ok', 'failed'],
  )
  readonly refreshReuse = new Counter({
    name: 'auth_refresh_reuse_detected_total',
    help: 'Refresh tokens presented again after use (the session is revoked past the reuse window).',
    registers: [this.registry],
  })
  readonly rateLimitRejections = startedAtZero(
    new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429, by limit.',
      labelNames: ['limit'] as const,
      registers: [this.registry],
    }),
    'limit',
    ['login_ip', 'login_client_ip', 'anon', 'api'] satisfies RateLimitName[],
  )
  readonly graphqlRecordedAnswers = new Counter({
    name: 'graphql_replayed_total',
    help: 'GraphQL requests answered before Yoga with a recorded catalog answer.',
    registers: [this.registry],
  })
  readonly graphqlKnownDocuments = new Counter({
    name: 'graphql_known_documents_total',
    help: 'GraphQL queries of a known document answered before Yoga, executed compiled.',
    registers: [this.registry],
  })
  readonly graphqlValidations = new Counter({
    name: 'graphql_documents_validated_total',
    help: 'GraphQL documents validated by graphql-js (not those of a form that validated before).',
    registers: [this.registry],
  })
  readonly graphqlKnownDocumentRuns = startedAtZero(
    new Counter({
      name: 'graphql_known_document_executions_total',
      help: 'Executions of known GraphQL documents before Yoga, by executor (compiled: graphql-jit).',
      labelNames: ['executor'] as const,
      registers: [this.registry],
    }),
    'executor',
    ['compiled', 'graphql-js'],
  )
  readonly eventStreamsEnded = startedAtZero(
    new Counter({
      name: 'event_streams_ended_total',
      help: 'Event streams the service ended (clients resume by id), by reason.',
      labelNames: ['reason'] as const,
      registers: [this.registry],
    }),
    'reason',
    ['token_expired', 'token_revoked', 'resync', 'shutdown'] satisfies EventStreamEndReason[],
  )

  constructor(poolCounts: () => PoolCounts) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const counts = poolCounts()
        this.set({ state: 'total' }, counts.total)
        this.set({ state: 'idle' }, counts.idle)
        this.set({ state: 'waiting' }, counts.waiting)
      },
    })
  }

  /** Reports the open event streams (SSE and GraphQL subscriptions) of this process, read when scraped. */
  watchEventStreams(open: () => number): void {
    new Gauge({
      name: 'event_streams_open',
      help: 'Event streams (SSE and GraphQL subscriptions) open in this process.',
      registers: [this.registry],
      collect() {
        this.set(open())
      },
    })
  }

  eventStreamEnded(reason: EventStreamEndReason): void {
    this.eventStreamsEnded.inc({ reason })
  }

  /** `route` is a route pattern (`/api/exchange/v1/orders/:uid`), `/graphql`, or `unmatched`. */
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : 'OTHER'
    this.httpRequests.inc({ route, method: m, status: String(status) })
    this.httpDuration.observe({ route, method: m }, seconds)
  }

  loginSucceeded(): void {
    this.logins.inc({ result: 'ok' })
  }

  loginFailed(): void {
    this.logins.inc({ result: 'failed' })
  }

  refreshReuseDetected(): void {
    this.refreshReuse.inc()
  }

  /** A GraphQL request answered before Yoga with a recorded catalog answer (RecordedAnswers). */
  graphqlAnsweredFromRecording(): void {
    this.graphqlRecordedAnswers.inc()
  }

  graphqlAnsweredKnownDocument(): void {
    this.graphqlKnownDocuments.inc()
  }

  graphqlDocumentValidated(): void {
    this.graphqlValidations.inc()
  }

  graphqlKnownDocumentRun(compiled: boolean): void {
    this.graphqlKnownDocumentRuns.inc({ executor: compiled ? 'compiled' : 'graphql-js' })
  }

  rateLimitRejected(limit: RateLimitName): void {
    this.rateLimitRejections.inc({ limit })
  }

  /**
   * The Prometheus text format (0.0.4), written as before prom-client: no blank line between
   * metrics and a bucket's `le` after its other labels (as client_golang writes it). Neither
   * changes what a scraper reads; both keep the text that line-based consumers and tests compare.
   */
  async render(): Promise<string> {
    const text = await this.registry.metrics()
    return text.replace(/\n\n+/g, '\n').replace(/^([a-zA-Z_:][a-zA-Z0-9_:]*_bucket)\{le="([^"]*)",(.+)\} (\S+)$/gm, '$1{$3,le="$2"} $4')
  }
}

/** A counter whose series for each of `values` of `label` exist, at 0, before anything happened. */
function startedAtZero<T extends string>(counter: Counter<T>, label: T, values: readonly string[]): Counter<T> {
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<T, string>>, 0)
  return counter
}

/** A counter's value for one set of labels (0 when that series does not exist): for tests and checks. */
export async function counterValue(counter: Counter, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await counter.get()
  const wanted = Object.entries(labels)
  return values.find((v) => Object.keys(v.labels).length === wanted.length && wanted.every(([k, x]) => String(v.labels[k]) === x))?.value ?? 0
}
