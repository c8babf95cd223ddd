import { createTemplate, TEMPLATE_ENV } from './database.ts'

/**
 * Runs once before any test file: migrates one database, which every test database then starts
 * from (a copied data directory on PGlite, `CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of
 * running initdb and the migrations once per file. Workers inherit the environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const { template, remove } = await createTemplate()
  process.env[TEMPLATE_ENV] = template
  return remove
}
