import { chmodSync, cpSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'

import { openDatabase } from '../src/db/database.ts'
import { createLogger } from '../src/observability/logger.ts'
import { onPostgres, TEMPLATE_ENV } from './helpers/database.ts'
import { LogSink } from './helpers/log-sink.ts'

const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-modes-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** DATA_DIR and everything under it that group or others may use: path and mode. */
function openToOthers(root: string): string[] {
  const found: string[] = []
  const visit = (file: string) => {
    const mode = lstatSync(file).mode & 0o777
    if (mode & 0o077) found.push(`${path.relative(root, file) || '.'} 0${mode.toString(8)}`)
    if (lstatSync(file).isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name))
  }
  visit(root)
  return found
}

// The embedded database whatever DATABASE_URL says: it is the one that writes files.
const open = (sink: LogSink) =>
  openDatabase({ databaseUrl: undefined, dataDir, dbPoolSize: 1, statementTimeoutMs: 5000 }, createLogger({ logLevel: 'warn' }, sink))

// On a PostgreSQL run there is no PGlite template to copy, and initdb would cost ~10 s for what
// the PGlite run already shows.
describe.skipIf(onPostgres)('DATA_DIR of the embedded database', () => {
  it('is tightened to 0700 with one warning, and nothing under it is left to group or others', async () => {
    chmodSync(dataDir, 0o755)
    writeFileSync(path.join(dataDir, 'notes.txt'), 'kept by hand')
    chmodSync(path.join(dataDir, 'notes.txt'), 0o644)
    // A cluster as PGlite wrote it (the suite's template, copied with its modes); without one,
    // initdb writes it now.
    const template = process.env[TEMPLATE_ENV]
    if (template) {
      cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true })
      // The template was itself opened by the service, so it is owner-only already: opened up as
      // initdb and PGlite's start leave a cluster (files 0666, directories 0755).
      const widen = (file: string) => {
        if (lstatSync(file).isDirectory()) {
          chmodSync(file, 0o755)
          for (const name of readdirSync(file)) widen(path.join(file, name))
        } else chmodSync(file, 0o666)
      }
      widen(path.join(dataDir, 'pgdata'))
      expect(openToOthers(dataDir).length).toBeGreaterThan(100)
    }

    const sink = new LogSink()
    const handle = await open(sink)
    try {
      expect(openToOthers(dataDir)).toEqual([])
      // What PostgreSQL writes while it runs: a table's files, WAL, a checkpoint.
      await sql`CREATE TABLE modes_probe AS SELECT g AS n FROM generate_series(1, 1000) g`.execute(handle.db)
      await sql`CHECKPOINT`.execute(handle.db)
      expect(openToOthers(dataDir)).toEqual([])
    } finally {
      await handle.close()
    }
    expect(openToOthers(dataDir)).toEqual([])
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(sink.lines().map(({ level, msg, dataDir: dir, mode }) => ({ level, msg, dataDir: dir, mode }))).toEqual([
      { level: 40, msg: `DATA_DIR ${dataDir} was mode 0755; tightened to 0700`, dataDir, mode: '0755' },
    ])

    // Opened again, there is nothing to tighten nor to warn of.
    const quiet = new LogSink()
    await (await open(quiet)).close()
    expect(quiet.lines()).toEqual([])
  })
})
