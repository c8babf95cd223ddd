import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runCliHere } from './helpers/cli.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'
import { childEnv, ROOT } from './helpers/process.ts'

const run = promisify(execFile)

describe('the operator CLI as documented', () => {
  // A migrated copy: the spawned CLI below need not create and migrate a database of its own.
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => {
    await database?.drop()
  })

  it('without a command prints its usage on stderr and exits 2 (a script missing its arguments must not pass)', async () => {
    const result = await runCliHere([], database.env)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('No command given')
    expect(result.stderr).toContain('client create --name NAME')
  })

  it('asked for help prints its usage on stdout and exits 0', async () => {
    const result = await runCliHere(['--help'], database.env)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: npm run --silent cli -- <command>')
  })

  it('the README and docs run it as `npm run --silent cli`, whose standard output is the CLI’s alone', async () => {
    const files = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => path.join('docs', name))]
    const unsilenced = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .filter((line) => /npm run (?!--silent )cli\b/.test(line))
        .map((line) => `${file}: ${line}`),
    )
    // npm prints its `> exchange-api@… cli` banner on stdout: `… > bank.json` would hold it too.
    expect(unsilenced).toEqual([])

    // A process of its own, as documented: the other CLI tests run the commands in this one.

    const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', 'client', 'create', '--name', 'Bank B'], {
      cwd: ROOT,
      env: childEnv(database.env),
    })
    const lines = stdout.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(['client_id', 'client_secret', 'tenant_id', 'roles', 'scopes'])
  })
})
