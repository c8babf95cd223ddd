import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { childEnv, ROOT, runCli } from './helpers/process.ts'

const run = promisify(execFile)

describe('the operator CLI as documented', () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-cli-usage-'))
  })
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('without a command prints its usage on stderr and exits 2 (a script missing its arguments must not pass)', async () => {
    const result = await runCli([], { DATA_DIR: dataDir })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('No command given')
    expect(result.stderr).toContain('client create --name NAME')
  })

  it('asked for help prints its usage on stdout and exits 0', async () => {
    const result = await runCli(['--help'], { DATA_DIR: dataDir })
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

    const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', 'client', 'create', '--name', 'Bank B'], {
      cwd: ROOT,
      env: childEnv({ DATA_DIR: dataDir }),
    })
    const lines = stdout.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(['client_id', 'client_secret', 'tenant_id', 'roles', 'scopes'])
  })
})
