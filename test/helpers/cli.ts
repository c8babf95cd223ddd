import { failure, runCommand } from '../../src/app/cli-commands.ts'
import { runCli } from '../../src/app/cli-run.ts'
import { type Config, loadConfig } from '../../src/core/config.ts'
import { type Db, openDatabase } from '../../src/db/database.ts'
import type { TestDatabase } from './database.ts'
import { childEnv, type CommandResult } from './process.ts'

/*
 * The operator CLI in the test's own process: a spawned CLI loads tsx and the application again,
 * seconds of CPU per command. test/cli-usage.test.ts and test/cli-running-server.test.ts keep the
 * few spawned runs that check what only a process shows (its exit code, npm's banner, the admin
 * socket of a server process).
 */

/** The CLI's whole run (src/app/cli-run.ts) with `env` as a spawned CLI would see it: it opens the database itself. */
export async function runCliHere(args: string[], env: Record<string, string | undefined>): Promise<CommandResult> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(
    args,
    childEnv(env),
    (text) => void (stdout += text),
    (text) => void (stderr += text),
  )
  return { code, stdout, stderr }
}

export interface OpenCli {
  /** The database the commands run on, for what a test sets up or checks without the CLI. */
  db: Db
  config: Config
  /** One command on the open database, its output and exit code as the CLI would give them. */
  run: (...args: string[]) => Promise<CommandResult>
  /** The same, with configuration other than the database's (`KEY_ENCRYPTION_KEY`). */
  runWith: (env: Record<string, string>, ...args: string[]) => Promise<CommandResult>
  close: () => Promise<void>
}

/**
 * Opens `database` once for many commands: each open of the embedded database costs over a
 * second of CPU. An embedded database is one process's: nothing else may open it meanwhile.
 */
export async function openCli(database: TestDatabase): Promise<OpenCli> {
  const configFor = (env: Record<string, string>) => loadConfig(childEnv({ ...database.env, ...env }))
  const config = configFor({})
  const handle = await openDatabase(config)
  const runWith = async (env: Record<string, string>, ...args: string[]): Promise<CommandResult> => {
    let stdout = ''
    try {
      await runCommand(configFor(env), handle.db, args, (text) => void (stdout += text))
      return { code: 0, stdout, stderr: '' }
    } catch (error) {
      const { stderr, code } = failure(error)
      return { code, stdout, stderr }
    }
  }
  return { db: handle.db, config, run: (...args) => runWith({}, ...args), runWith, close: () => handle.close() }
}
