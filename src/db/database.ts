import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import { PGlite } from '@electric-sql/pglite'
import { CompiledQuery, Kysely, type LogEvent, PGliteDialect, PostgresDialect, type QueryResult, type RawBuilder, sql } from 'kysely'
import pg from 'pg'
import type { Logger } from 'pino'

import type { Config } from '../core/config.ts'
import type { Database } from './schema.ts'

export type Db = Kysely<Database>

export interface DatabaseHandle {
  db: Db
  kind: 'postgres' | 'pglite'
  /** Counts statements sent, for tests that prove a fixed number of queries. */
  queryCount: () => number
  /** Pool connections by state, for metrics (the embedded database is one connection). */
  connections: () => { total: number; idle: number; waiting: number }
  close: () => Promise<void>
}

const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184
const INT8 = 20
const raw = (v: string) => v

export class EmbeddedDatabaseBusy extends Error {}

const preparedNames = new Map<string, string>()

/**
 * A fixed statement PostgreSQL parses and plans once per connection instead of on every call (a
 * named prepared statement; the embedded database runs it as any other). For hot statements only:
 * its result columns must be listed, never `*`, or a column added by a migration while the process
 * runs would fail it ("cached plan must not change result type").
 */
export function preparedStatement<R>(name: string, text: string): (parameters: readonly unknown[]) => CompiledQuery<R> {
  if (preparedNames.has(text) || [...preparedNames.values()].includes(name)) throw new Error(`prepared statement ${name} registered twice`)
  preparedNames.set(text, name)
  return (parameters) => CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>
}

/**
 * Runs `query` as a named prepared statement, as `preparedStatement` does, for a statement built
 * with Kysely's `sql` whose text never changes (only its parameters do): registered on first use.
 */
export async function executePrepared<R>(db: Kysely<any>, name: string, query: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled = query.compile(db)
  const registered = preparedNames.get(compiled.sql)
  if (registered === undefined) {
    if ([...preparedNames.values()].includes(name)) throw new Error(`prepared statement ${name} registered with another text`)
    preparedNames.set(compiled.sql, name)
  } else if (registered !== name) throw new Error(`one text prepared as ${registered} and ${name}`)
  return db.executeQuery(compiled)
}

/**
 * A flat array parameter as PostgreSQL's array literal. The pass sends its rows as arrays of
 * uuids, decimals and short words (unnest); pg's own conversion runs two regular expressions over
 * every element (docs/performance.md, "What bounds each scenario"), where quoting each one and escaping
 * only the rare element holding `"` or `\` gives the same literal. Anything but strings, numbers,
 * booleans and nulls (nested arrays, buffers, dates) is left to pg.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  let literal = '{'
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (i > 0) literal += ','
    if (value === null || value === undefined) literal += 'NULL'
    else if (typeof value === 'string') {
      literal += value.includes('"') || value.includes('\\') ? `"${value.replace(/[\\"]/g, '\\$&')}"` : `"${value}"`
    } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') literal += String(value)
    else return undefined
  }
  return `${literal}}`
}

const UNIT_SEPARATOR = '\x1f'

/**
 * Texts made by `JSON.stringify` (events' bodies, audit details) as ONE text parameter joined by
 * the unit separator, split by PostgreSQL into a `text[]`. As an array literal every `"` of every
 * text is escaped here and unescaped there, which was ~30 µs of service CPU per crossing order
 * (docs/performance.md, "What bounds each scenario"). `JSON.stringify` escapes every control
 * character, so the separator never occurs in its output; a text holding it, or an empty one
 * (which the split cannot tell from none), is refused rather than split wrongly.
 */
export function separatedTexts(texts: readonly string[]): RawBuilder<string[]> {
  for (const text of texts) if (text.length === 0) throw new Error('separatedTexts: an empty text')
  const joined = texts.join(UNIT_SEPARATOR)
  // Counted once over the joined text: `includes` on each text first flattened it (most are built
  // by concatenation), a copy of every body.
  let separators = 0
  for (let at = joined.indexOf(UNIT_SEPARATOR); at !== -1; at = joined.indexOf(UNIT_SEPARATOR, at + 1)) separators++
  if (texts.length > 0 && separators !== texts.length - 1) throw new Error('separatedTexts: a text holding U+001F')
  return sql<string[]>`string_to_array(${joined}::text, chr(31))`
}

const withArrayLiterals = (values: unknown) =>
  Array.isArray(values) ? values.map((value: unknown) => (Array.isArray(value) ? (arrayLiteral(value) ?? value) : value)) : values

/** Sends the registered statements by name, so each connection prepares them once; array parameters as literals. */
class PreparingClient extends pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): any {
    const name = typeof config === 'string' ? preparedNames.get(config) : undefined
    return (super.query as (...args: unknown[]) => unknown)(name ? { name, text: config } : config, withArrayLiterals(values), callback)
  }
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize' | 'statementTimeoutMs'>,
  logger?: Pick<Logger, 'warn'>,
): Promise<DatabaseHandle> {
  let queries = 0
  const log = (event: LogEvent) => {
    if (event.level === 'query' || event.level === 'error') queries++
  }
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      Client: PreparingClient,
      connectionString: config.databaseUrl,
      max: config.dbPoolSize,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      statement_timeout: config.statementTimeoutMs,
      options: '-c TimeZone=UTC',
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === TIMESTAMP || oid === TIMESTAMPTZ) return raw
          if (oid === INT8) return Number
          return pg.types.getTypeParser(oid, format)
        }) as typeof pg.types.getTypeParser,
      },
    })
    // An idle client losing its connection (database restart) must not crash the process; the
    // pool drops it and opens a fresh one on the next query, so the service recovers by itself.
    pool.on('error', (err) => logger?.warn({ err }, 'idle database connection lost'))
    // A checked-out client losing its connection between statements emits 'error' too, with no
    // pool listener attached; unheard, that would crash the process. Its statements fail with
    // the same error (answered 503) and the pool discards it on release.
    pool.on('connect', (client) => client.on('error', (err) => logger?.warn({ err }, 'database connection lost')))
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log })
    return {
      db,
      kind: 'postgres',
      queryCount: () => queries,
      connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    }
  }

  const dir = path.resolve(config.dataDir)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const mode = statSync(dir).mode & 0o777
  if (mode !== 0o700) {
    const old = `0${mode.toString(8)}`
    try {
      chmodSync(dir, 0o700)
      if (mode & 0o077) logger?.warn({ dataDir: dir, mode: old }, `DATA_DIR ${dir} was mode ${old}; tightened to 0700`)
    } catch (err) {
      // Not the owner of a directory it may write to: say so, but serve as before.
      logger?.warn({ err, dataDir: dir, mode: old }, `DATA_DIR ${dir} is mode ${old} and could not be tightened to 0700`)
    }
  }
  const releaseLock = lockDataDir(dir)
  try {
    const pglite = await PGlite.create(path.join(dir, 'pgdata'), {
      parsers: { [TIMESTAMP]: raw, [TIMESTAMPTZ]: raw, [INT8]: Number },
    })
    ownerOnly(dir, logger)
    await pglite.exec(`SET TimeZone = 'UTC'`)
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), log })
    return {
      db,
      kind: 'pglite',
      queryCount: () => queries,
      connections: () => ({ total: 1, idle: 0, waiting: 0 }),
      close: async () => {
        await db.destroy()
        releaseLock()
      },
    }
  } catch (error) {
    releaseLock()
    throw error
  }
}

/**
 * Makes every directory under `dir` 0700 and every file 0600 (symbolic links left alone, never
 * followed). initdb and PGlite's start write files 0666 and directories 0755 whatever the umask
 * (its file system sets modes itself, so a umask cannot help); what PostgreSQL creates after is
 * 0600/0700, its own modes, inside directories this has closed (docs/operations.md, "Files").
 */
function ownerOnly(dir: string, logger: Pick<Logger, 'warn'> | undefined): void {
  const failed: string[] = []
  let failures = 0
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name)
      try {
        if (entry.isDirectory()) {
          chmodSync(file, 0o700)
          walk(file)
        } else if (entry.isFile()) chmodSync(file, 0o600)
      } catch {
        if (++failures <= 10) failed.push(file)
      }
    }
  }
  walk(dir)
  if (failures > 0) logger?.warn({ dataDir: dir, files: failed, count: failures }, `could not make ${failures} files in DATA_DIR ${dir} owner-only`)
}

/**
 * PGlite is single-process: a second process opening the same directory would corrupt it.
 * A lock file holding the owner's pid keeps the CLI (or a second server) out while one runs.
 */
function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'embedded.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeFileSync(fd, String(process.pid))
      closeSync(fd)
      return () => {
        try {
          unlinkSync(file)
        } catch {}
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number(readFileSync(file, 'utf8').trim())
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new EmbeddedDatabaseBusy(
          `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
            'Stop the server first, or set DATABASE_URL to use PostgreSQL, which serves many processes.',
        )
      }
      unlinkSync(file) // stale lock of a process that died
    }
  }
  throw new EmbeddedDatabaseBusy(`Could not lock the embedded database in ${dir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
