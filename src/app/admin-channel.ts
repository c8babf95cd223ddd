import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { createInterface } from 'node:readline'

import type { Logger } from 'pino'

import type { Config } from '../core/config.ts'
import type { Db } from '../db/database.ts'
import { failure, type Output, runCommand } from './cli-commands.ts'

/*
 * The admin channel: how the CLI runs a command while a server holds the embedded database.
 * PGlite is one process's: a second one opening its directory would corrupt it, so the CLI asks
 * the server to run the command instead, over a unix socket in DATA_DIR that only the owner can
 * open. The command runs in the server on its own database handle, exactly as the CLI would run
 * it, and the server's caches see the change as they see their own writes (docs/operations.md).
 *
 * One JSON line each way and back: the CLI sends {"argv": [...]}; the server answers
 * {"stdout": "..."} lines as the command prints, then {"code": n, "stderr": "..."} and closes.
 */

/** Where the channel's socket lives: a directory of its own in DATA_DIR, mode 0700. */
export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'admin', 'cli.sock')
}

/** A request line is an argv: a few hundred bytes. Anything longer is not the CLI. */
const MAX_REQUEST_BYTES = 64 * 1024

export interface AdminChannel {
  /** Stops accepting commands and waits for the ones running. */
  close: () => Promise<void>
}

/**
 * Serves CLI commands on the admin socket. Only for the embedded database: on PostgreSQL the CLI
 * opens the database itself, beside any number of servers.
 */
export async function serveAdminChannel(config: Config, db: Db, logger: Pick<Logger, 'info' | 'warn'>): Promise<AdminChannel | undefined> {
  const file = adminSocketPath(config.dataDir)
  const dir = path.dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  // The directory keeps everyone else out (connecting needs search permission on it): make sure
  // it is ours and closed, whatever was there before.
  const stat = lstatSync(dir)
  if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
    logger.warn({ dir }, 'admin channel not served: its directory is not a directory of this user; the CLI needs the server stopped')
    return undefined
  }
  chmodSync(dir, 0o700)
  // The server holds the database's lock, so a socket file left here is a dead server's.
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }

  const running = new Set<Promise<void>>()
  const server = net.createServer((socket) => {
    const done = answer(socket, config, db, logger)
    running.add(done)
    void done.finally(() => running.delete(done))
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(file, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    // A DATA_DIR path too long for a unix socket (about 100 bytes) is the likely cause.
    logger.warn({ err: error, socket: file }, 'admin channel not served; the CLI needs the server stopped')
    return undefined
  }
  chmodSync(file, 0o600)
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.allSettled([...running])
    },
  }
}

async function answer(socket: net.Socket, config: Config, db: Db, logger: Pick<Logger, 'info' | 'warn'>): Promise<void> {
  socket.on('error', () => {}) // a CLI interrupted mid-answer; nothing to tell it
  const argv = await readRequest(socket)
  if (!argv) return void socket.destroy()
  const send = (message: object) => socket.write(`${JSON.stringify(message)}\n`)
  const stdout: Output = (text) => send({ stdout: text })
  let result = { code: 0, stderr: '' }
  try {
    await runCommand(config, db, argv, stdout)
  } catch (error) {
    result = failure(error)
  }
  // The command's name only: its arguments and output may carry secrets.
  logger.info(
    {
      command: argv
        .slice(0, 2)
        .filter((word) => /^[a-z-]{1,32}$/.test(word))
        .join(' '),
      code: result.code,
    },
    'CLI command run',
  )
  send(result)
  socket.end()
}

/** The request's argv, or undefined when the line is not one. */
function readRequest(socket: net.Socket): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    let bytes = 0
    const lines = createInterface({ input: socket })
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > MAX_REQUEST_BYTES) {
        resolve(undefined)
        lines.close()
      }
    })
    lines.once('line', (line) => {
      // Before closing, which emits 'close' at once.
      resolve(parseRequest(line))
      lines.close()
    })
    lines.once('close', () => resolve(undefined))
  })
}

function parseRequest(line: string): string[] | undefined {
  try {
    const { argv } = JSON.parse(line) as { argv?: unknown }
    return Array.isArray(argv) && argv.every((word) => typeof word === 'string') ? argv : undefined
  } catch {
    return undefined
  }
}

/**
 * Runs `argv` in the server holding the embedded database in `dataDir`, relaying its output.
 * Returns the exit code, or undefined when no server answers there (none runs, or a dead one left
 * its socket): the CLI then opens the database itself.
 */
export function runInServer(dataDir: string, argv: string[], stdout: Output, stderr: Output): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(adminSocketPath(dataDir))
    let connected = false
    let code: number | undefined
    socket.once('connect', () => {
      connected = true
      socket.write(`${JSON.stringify({ argv })}\n`)
      createInterface({ input: socket }).on('line', (line) => {
        const message = JSON.parse(line) as { stdout?: string; stderr?: string; code?: number }
        if (message.stdout !== undefined) stdout(message.stdout)
        if (message.code !== undefined) {
          if (message.stderr) stderr(message.stderr)
          code = message.code
        }
      })
    })
    socket.on('error', () => {})
    socket.once('close', () => {
      if (!connected) return resolve(undefined)
      if (code === undefined) {
        stderr('The server closed the admin channel before the command finished; it may have run: check before retrying.\n')
        code = 1
      }
      resolve(code)
    })
  })
}
