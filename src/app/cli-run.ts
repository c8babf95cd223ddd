import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs'

import { loadConfig } from '../core/config.ts'
import { EmbeddedDatabaseBusy, openDatabase } from '../db/database.ts'
import { adminSocketPath, runInServer } from './admin-channel.ts'
import { failure, type Output, runCommand, USAGE, UsageError } from './cli-commands.ts'

/**
 * `--out FILE` (or `--out=FILE`) taken out of `argv`: the CLI's own, as the file is this process's
 * to write even when a server runs the command. Options end at `--`.
 */
export function takeOut(argv: string[]): { argv: string[]; out?: string } {
  const rest: string[] = []
  let out: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (word !== '--out' && !word.startsWith('--out=')) {
      rest.push(word)
      continue
    }
    if (out !== undefined) throw new UsageError('--out is given twice')
    out = word === '--out' ? argv[++i] : word.slice('--out='.length)
    if (!out || out.startsWith('-')) throw new UsageError('--out needs a file name')
  }
  return { argv: rest, out }
}

/**
 * Creates `file` for the command's output: 0600, as it may hold a client's secret, and only if it
 * does not exist, so neither an older secret nor a file someone else prepared (with a wider mode or
 * a link elsewhere) is reused. Done before the command runs, which creates nothing if this fails.
 */
function createOutput(file: string): number {
  try {
    return openSync(file, 'wx', 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new UsageError(`--out ${file}: the file exists; the CLI does not overwrite it (remove it or choose another name)`)
    throw new UsageError(`--out ${file}: cannot create it (${code ?? String(error)})`)
  }
}

/**
 * The operator CLI's whole run but the process around it (cli.ts): reads `argv` (without the
 * program) and `env`, writes to `stdout` and `stderr`, and returns the exit code. Also run in
 * the tests' own process, where a spawned CLI would cost seconds of CPU per command.
 */
export async function runCli(args: string[], env: Record<string, string | undefined>, stdout: Output, stderr: Output): Promise<number> {
  let taken
  try {
    taken = takeOut(args)
  } catch (error) {
    stderr(failure(error).stderr)
    return 2
  }
  if (taken.out === undefined) return runArgv(taken.argv, env, stdout, stderr)
  let fd
  try {
    fd = createOutput(taken.out)
  } catch (error) {
    const { stderr: message, code } = failure(error)
    stderr(message)
    return code
  }
  let written = 0
  try {
    const code = await runArgv(taken.argv, env, (text) => void (written += writeSync(fd, text)), stderr)
    // A command that failed before printing leaves no empty file behind.
    if (code !== 0 && written === 0) unlinkSync(taken.out)
    else if (code === 0) stderr(`Wrote ${taken.out} (mode 0600)\n`)
    return code
  } finally {
    closeSync(fd)
  }
}

async function runArgv(argv: string[], env: Record<string, string | undefined>, stdout: Output, stderr: Output): Promise<number> {
  if (argv[0] === '--help' || argv[0] === 'help') {
    stdout(`${USAGE}\n`)
    return 0
  }
  // No command is a mistake (a script missing its arguments), not a request for help.
  if (argv.length === 0) {
    stderr(`No command given\n\n${USAGE}\n`)
    return 2
  }
  try {
    const config = loadConfig(env)
    if (!config.databaseUrl) {
      // A server holding the embedded database runs the command itself; none, and we open it.
      const code = await runInServer(config.dataDir, argv, stdout, stderr)
      if (code !== undefined) return code
    }
    const database = await openDatabase(config).catch((error: unknown) => {
      if (!(error instanceof EmbeddedDatabaseBusy)) throw error
      throw new EmbeddedDatabaseBusy(
        `${error.message}\nIt took no command on ${adminSocketPath(config.dataDir)}: if it is a server starting, try again once it listens.`,
      )
    })
    try {
      await runCommand(config, database.db, argv, stdout)
    } finally {
      await database.close()
    }
    return 0
  } catch (error) {
    const { stderr: message, code } = failure(error)
    stderr(message)
    return code
  }
}
