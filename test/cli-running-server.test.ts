import { existsSync, renameSync, statSync } from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { adminSocketPath } from '../src/app/admin-channel.ts'
import { runCliHere } from './helpers/cli.ts'
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers/database.ts'
import { runCli, type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer } from './helpers/server.ts'

const login = (url: string, client: { client_id: string; client_secret: string }) =>
  fetch(`${url}/api/sso/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(client) })

// The embedded database is one process's: with a server running, the CLI runs its commands in it
// over the admin channel (src/app/admin-channel.ts); without one, it opens the database itself.
// One command runs in a CLI process; the others run the CLI's code (src/app/cli-run.ts) in this
// process, which reaches the server process over the same socket.
describe.skipIf(onPostgres)('the CLI beside a server on the embedded database', () => {
  let database: TestDatabase
  let dataDir: string
  let server: ServerProcess | undefined
  const env = () => ({ DATA_DIR: dataDir })
  beforeAll(async () => {
    // A migrated copy (test/helpers/database.ts): the server only seeds it.
    database = await createTestDatabase()
    dataDir = database.dataDir
    server = await startServerProcess(env(), 150_000)
  }, 180_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await database?.drop()
  })

  it('runs commands while the server runs, and the server sees their changes at once', async () => {
    const created = await runCli(['client', 'create', '--name', 'Bank B'], env())
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const client = JSON.parse(created.stdout)
    expect((await login(server!.url, client)).status).toBe(200)

    const listed = await runCliHere(['client', 'list'], env())
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(client.client_id)

    expect((await runCliHere(['client', 'deactivate', client.client_id], env())).code).toBe(0)
    expect((await login(server!.url, client)).status).toBe(401)
  })

  it('answers errors as the CLI does: the same message and exit code', async () => {
    const unknown = await runCliHere(['symbol', 'activate', 'NOPE-IRR'], env())
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('does not exist')
    const usage = await runCliHere(['client', 'create'], env())
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('client create needs --name')
  })

  it('keeps the channel to its owner: a socket in a directory of mode 0700', () => {
    const socket = adminSocketPath(dataDir)
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700)
    expect(statSync(socket).mode & 0o077).toBe(0)
  })

  it('refuses clearly, naming the socket, when the server holding the database takes no commands', async () => {
    // As a server still starting would: it holds the lock but serves no socket yet. Renamed aside,
    // the socket stays the server's and comes back as it was.
    const socket = adminSocketPath(dataDir)
    renameSync(socket, `${socket}.aside`)
    try {
      const result = await runCliHere(['client', 'list'], env())
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`is in use by another process (pid ${server!.child.pid})`)
      expect(result.stderr).toContain('DATABASE_URL')
      expect(result.stderr).toContain(`It took no command on ${socket}`)
    } finally {
      renameSync(`${socket}.aside`, socket)
    }
    expect((await runCliHere(['client', 'list'], env())).code).toBe(0)
  })

  it('opens the database itself once no server runs, even when a killed one left its socket and lock', async () => {
    await server!.stop('SIGKILL')
    server = undefined
    expect(existsSync(adminSocketPath(dataDir))).toBe(true)
    // Opened here, in this process: it takes the dead server's lock over, and closes the database.
    const created = await runCliHere(['client', 'create', '--name', 'Bank C'], env())
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    // A server started next sees what the CLI wrote alone.
    const next = await startTestServer({}, database)
    try {
      expect((await login(next.url, JSON.parse(created.stdout))).status).toBe(200)
    } finally {
      await next.stop()
    }
  })
})
