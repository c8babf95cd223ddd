import { readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'

import pg from 'pg'

import { cpuMs } from './events.ts'

/**
 * The statements scenario (docs/performance.md, "Scenarios and goals"; PostgreSQL only): one
 * account holding STATEMENT_ENTRIES ledger entries over a year, inserted by one generate_series
 * statement, then its year-long statement streamed once in each form. Reports entries/s, the
 * service's CPU per entry and how far its peak RSS (VmHWM) rose above its RSS at the start of each
 * form: the goal is ≥ 50,000 entries/s in flat memory. BENCH_STATEMENT_FORMATS picks and orders the
 * forms (`csv,json`; default `json,csv,camt053`).
 */
export const STATEMENT_ENTRIES = 1_000_000
export const STATEMENT_CURRENCY = 'USD'
const ACCEPT = { json: 'application/json', csv: 'text/csv', camt053: 'application/xml' } as const
type Form = keyof typeof ACCEPT
const FORMATS: Form[] = (process.env.BENCH_STATEMENT_FORMATS ?? 'json,csv,camt053')
  .split(',')
  .map((f) => f.trim())
  .filter((f): f is Form => f in ACCEPT)

export async function seedStatementEntries(databaseUrl: string, tenantId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    // One entry every ~31.5 s through 2026, each a deposit of 1: balance_after is its ordinal.
    await client.query(
      `insert into accounts (tenant_id, currency, balance) values ($1, $2, $3)
       on conflict (tenant_id, currency) do update set balance = accounts.balance + excluded.balance`,
      [tenantId, STATEMENT_CURRENCY, STATEMENT_ENTRIES],
    )
    await client.query(
      `insert into ledger_entries (uid, created_at, tenant_id, currency, amount, balance_after, kind, reference)
       select gen_random_uuid(), timestamp '2026-01-01' + i * interval '31.5 seconds', $1, $2, 1,
         coalesce((select balance from accounts where tenant_id = $1 and currency = $2), 0) - $3 + i, 'deposit', 'bench-' || i
       from generate_series(1, $3::int) as i`,
      [tenantId, STATEMENT_CURRENCY, STATEMENT_ENTRIES],
    )
    await client.query('analyze ledger_entries')
  } finally {
    await client.end()
  }
}

export interface StatementResult {
  format: string
  entries: number
  bytes: number
  seconds: number
  entriesPerSec: number
  /** The service's CPU (every thread) per entry, in µs: what compares two versions on a shared host. */
  serviceCpuUsPerEntry: number
  /**
   * Peak RSS during the form − RSS at its start. The peak is reset before each form (`clear_refs`),
   * so the first form does not carry the growth every later one would also have shown.
   */
  peakRssGrowthKiB: number
}

/** Resets the process's peak RSS to its current RSS (Linux ≥ 4.0); false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`no ${field} for process ${pid}`)
  return Number(match[1])
}

/** Streams the statement once per form, reading as fast as the socket gives it and keeping nothing. */
export async function measureStatements(url: string, token: string, pid: number): Promise<StatementResult[]> {
  const results: StatementResult[] = []
  for (const format of FORMATS) {
    const accept = ACCEPT[format]
    const target = new URL(`/api/exchange/v1/accounts/${STATEMENT_CURRENCY}/statement?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`, url)
    // Without a reset, growth is counted from the earlier forms' peak (an underestimate after the first).
    const before = resetPeak(pid) ? statusKiB(pid, 'VmRSS') : statusKiB(pid, 'VmHWM')
    const cpuBefore = cpuMs(pid)
    const started = process.hrtime.bigint()
    const bytes = await new Promise<number>((resolve, reject) => {
      const req = request(target, { headers: { authorization: `Bearer ${token}`, accept } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`statement ${format}: ${res.statusCode}`))
        let n = 0
        res.on('data', (chunk: Buffer) => (n += chunk.length))
        res.on('end', () => resolve(n))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const cpu = cpuMs(pid) - cpuBefore
    results.push({
      format,
      entries: STATEMENT_ENTRIES,
      bytes,
      seconds: Number(seconds.toFixed(2)),
      entriesPerSec: Math.round(STATEMENT_ENTRIES / seconds),
      serviceCpuUsPerEntry: Number(((cpu * 1000) / STATEMENT_ENTRIES).toFixed(2)),
      peakRssGrowthKiB: statusKiB(pid, 'VmHWM') - before,
    })
  }
  return results
}

export function formatStatements(results: StatementResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.format} | ${r.entries} | ${r.bytes} | ${r.seconds} | ${r.entriesPerSec} | ${r.serviceCpuUsPerEntry} | ${r.peakRssGrowthKiB} | ${r.entriesPerSec >= 50_000 ? 'yes' : 'no'} |`,
  )
  return `\nStatements (one account, ${STATEMENT_ENTRIES} entries over a year, streamed once per form):\n\n| form | entries | bytes | seconds | entries/s | service CPU µs/entry | service peak RSS growth KiB | ≥ 50,000/s |\n|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`
}
