import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { FileMigrationProvider, Migrator } from 'kysely/migration'

import type { Db } from './database.ts'

const migrationFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations')

/**
 * Applies pending migrations. Kysely's Migrator takes a table lock, so two processes starting
 * together apply each migration once.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({
      fs,
      path,
      migrationFolder,
      import: (file: string) => import(pathToFileURL(file).href),
    }),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
