import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

  it('client create --out FILE writes the JSON to a new file of mode 0600, and refuses a file that exists', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-out-'))
    try {
      const file = path.join(dir, 'bank-out.json')
      const result = await runCliHere(['client', 'create', '--name', 'Bank Out', '--out', file], database.env)
      expect(result.code).toBe(0)
      expect(result.stdout).toBe('')
      expect(result.stderr).toBe(`Wrote ${file} (mode 0600)\n`)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const written = readFileSync(file, 'utf8')
      expect(written.endsWith('\n')).toBe(true)
      const created = JSON.parse(written)
      expect(Object.keys(created)).toEqual(['client_id', 'client_secret', 'tenant_id', 'roles', 'scopes'])

      // A second run would lose the first secret, and a file prepared by someone else may be wider
      // or a link: refused before anything is created.
      const again = await runCliHere(['client', 'create', '--name', 'Bank Out', '--out', file], database.env)
      expect(again.code).toBe(2)
      expect(again.stdout).toBe('')
      expect(again.stderr.split('\n')[0]).toBe(`--out ${file}: the file exists; the CLI does not overwrite it (remove it or choose another name)`)
      expect(readFileSync(file, 'utf8')).toBe(written)
      const other = path.join(dir, 'prepared.json')
      writeFileSync(other, '', { mode: 0o644 })
      expect((await runCliHere(['client', 'create', '--name', 'Bank Out', `--out=${other}`], database.env)).code).toBe(2)

      const listed = await runCliHere(['client', 'list'], database.env)
      const outs = listed.stdout.split('\n').filter((line) => line.includes('"Bank Out"'))
      expect(outs.map((line) => JSON.parse(line).client_id)).toEqual([created.client_id])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
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
