/**
 * A small Prometheus registry (text exposition format 0.0.4) and the service's metrics.
 * Label values come from fixed sets (route patterns, known methods, status codes), never from
 * raw request data, so the number of series stays bounded whatever callers send.
 */

type Labels = Record<string, string>

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')

function renderLabels(labels: Labels): string {
  const entries = Object.entries(labels)
  if (!entries.length) return ''
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`
}

const formatValue = (value: number) => (Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN')

interface Metric {
  render(): string
}

export class Counter implements Metric {
  #values = new Map<string, { labels: Labels; value: number }>()

  constructor(
    readonly name: string,
    readonly help: string,
    /** Series rendered as 0 before anything happened, so dashboards see them from the start. */
    initial: Labels[] = [],
  ) {
    for (const labels of initial) this.inc(labels, 0)
  }

  inc(labels: Labels = {}, by = 1): void {
    const key = JSON.stringify(labels)
    const entry = this.#values.get(key)
    if (entry) entry.value += by
    else this.#values.set(key, { labels, value: by })
  }

  value(labels: Labels = {}): number {
    return this.#values.get(JSON.stringify(labels))?.value ?? 0
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`]
    for (const { labels, value } of this.#values.values()) lines.push(`${this.name}${renderLabels(labels)} ${formatValue(value)}`)
    return lines.join('\n')
  }
}

export class Histogram implements Metric {
  #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}

  observe(labels: Labels, value: number): void {
    const key = JSON.stringify(labels)
    let series = this.#series.get(key)
    if (!series) {
      series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }
      this.#series.set(key, series)
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) series.counts[i]!++
    series.sum += value
    series.count++
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`]
    for (const { labels, counts, sum, count } of this.#series.values()) {
      this.buckets.forEach((le, i) => lines.push(`${this.name}_bucket${renderLabels({ ...labels, le: String(le) })} ${counts[i]}`))
      lines.push(`${this.name}_bucket${renderLabels({ ...labels, le: '+Inf' })} ${count}`)
      lines.push(`${this.name}_sum${renderLabels(labels)} ${formatValue(sum)}`)
      lines.push(`${this.name}_count${renderLabels(labels)} ${count}`)
    }
    return lines.join('\n')
  }
}

/** A gauge read when scraped. */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly collect: () => { labels: Labels; value: number }[],
  ) {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`]
    for (const { labels, value } of this.collect()) lines.push(`${this.name}${renderLabels(labels)} ${formatValue(value)}`)
    return lines.join('\n')
  }
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export type RateLimitName = 'login_ip' | 'login_client_ip' | 'anon' | 'api'

export interface PoolCounts {
  total: number
  idle: number
  waiting: number
}

/**
 * The service's metrics. Feature code records what only it knows through the named methods
 * (`loginSucceeded`, `loginFailed`, `refreshReuseDetected`); HTTP and rate-limit metrics are
 * recorded by the infrastructure.
 */
export class Metrics {
  readonly httpRequests = new Counter('http_requests_total', 'HTTP requests answered, by route pattern, method and status.')
  readonly httpDuration = new Histogram(
    'http_request_duration_seconds',
    'Time from receiving a request to its response headers, by route pattern and method.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  )
  readonly logins = new Counter('auth_logins_total', 'Login attempts by result.', [{ result: 'ok' }, { result: 'failed' }])
  readonly refreshReuse = new Counter(
    'auth_refresh_reuse_detected_total',
    'Refresh tokens presented again after use (the session is revoked past the reuse window).',
    [{}],
  )
  readonly rateLimitRejections = new Counter('rate_limit_rejections_total', 'Requests refused with 429, by limit.', [
    { limit: 'login_ip' },
    { limit: 'login_client_ip' },
    { limit: 'anon' },
    { limit: 'api' },
  ])
  readonly graphqlRecordedAnswers = new Counter('graphql_replayed_total', 'GraphQL requests answered before Yoga with a recorded catalog answer.', [{}])
  readonly eventStreamsEnded = new Counter('event_streams_ended_total', 'Event streams the service ended (clients resume by id), by reason.', [
    { reason: 'token_expired' },
    { reason: 'token_revoked' },
    { reason: 'resync' },
    { reason: 'shutdown' },
  ])
  readonly #metrics: Metric[]

  constructor(poolCounts: () => PoolCounts) {
    const pool = new Gauge('db_pool_connections', 'Database pool connections by state.', () => {
      const counts = poolCounts()
      return [
        { labels: { state: 'total' }, value: counts.total },
        { labels: { state: 'idle' }, value: counts.idle },
        { labels: { state: 'waiting' }, value: counts.waiting },
      ]
    })
    this.#metrics = [
      this.httpRequests,
      this.httpDuration,
      this.logins,
      this.refreshReuse,
      this.rateLimitRejections,
      this.graphqlRecordedAnswers,
      this.eventStreamsEnded,
      pool,
    ]
  }

  /** Reports the open event streams (SSE and GraphQL subscriptions) of this process, read when scraped. */
  watchEventStreams(open: () => number): void {
    this.#metrics.push(
      new Gauge('event_streams_open', 'Event streams (SSE and GraphQL subscriptions) open in this process.', () => [{ labels: {}, value: open() }]),
    )
  }

  eventStreamEnded(reason: 'token_expired' | 'token_revoked' | 'resync' | 'shutdown'): void {
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

  rateLimitRejected(limit: RateLimitName): void {
    this.rateLimitRejections.inc({ limit })
  }

  render(): string {
    return `${this.#metrics.map((m) => m.render()).join('\n')}\n`
  }
}
