import { existsSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { adminSocketPath } from '../src/app/admin-channel.ts'
import { onPostgres } from './helpers/database.ts'
import { runCli, type ServerProcess, startServerProcess } from './helpers/process.ts'

const login = (url: string, client: { client_id: string; client_secret: string }) =>
  fetch(`${url}/api/sso/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(client) })

// The embedded database is one process's: with a server running, the CLI runs its commands in it
// over the admin channel (src/app/admin-channel.ts); without one, it opens the database itself.
describe.skipIf(onPostgres)('the CLI beside a server on the embedded database', () => {
  let dataDir: string
  let server: ServerProcess | undefined
  const env = () => ({ DATA_DIR: dataDir })
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-cli-'))
    // A first start creates, migrates and seeds the database: slow on a busy host.
    server = await startServerProcess(env(), 150_000)
  }, 180_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('runs commands while the server runs, and the server sees their changes at once', async () => {
    const created = await runCli(['client', 'create', '--name', 'Bank B'], env())
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const client = JSON.parse(created.stdout)
    expect((await login(server!.url, client)).status).toBe(200)

    const listed = await runCli(['client', 'list'], env())
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(client.client_id)

    expect((await runCli(['client', 'deactivate', client.client_id], env())).code).toBe(0)
    expect((await login(server!.url, client)).status).toBe(401)
  })

  it('answers errors as the CLI does: the same message and exit code', async () => {
    const unknown = await runCli(['symbol', 'activate', 'NOPE-IRR'], env())
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('does not exist')
    const usage = await runCli(['client', 'create'], env())
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('client create needs --name')
  })

  it('keeps the channel to its owner: a socket in a directory of mode 0700', () => {
    const socket = adminSocketPath(dataDir)
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700)
    expect(statSync(socket).mode & 0o077).toBe(0)
  })

  it('opens the database itself once no server runs, even when a killed one left its socket and lock', async () => {
    await server!.stop('SIGKILL')
    server = undefined
    expect(existsSync(adminSocketPath(dataDir))).toBe(true)
    const created = await runCli(['client', 'create', '--name', 'Bank C'], env())
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    // The next server takes the socket over and sees what the CLI wrote alone.
    server = await startServerProcess(env(), 150_000)
    expect((await login(server.url, JSON.parse(created.stdout))).status).toBe(200)
  }, 240_000)
})
