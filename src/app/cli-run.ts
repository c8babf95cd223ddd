import { loadConfig } from '../core/config.ts'
import { EmbeddedDatabaseBusy, openDatabase } from '../db/database.ts'
import { adminSocketPath, runInServer } from './admin-channel.ts'
import { failure, type Output, runCommand, USAGE } from './cli-commands.ts'

/**
 * The operator CLI's whole run but the process around it (cli.ts): reads `argv` (without the
 * program) and `env`, writes to `stdout` and `stderr`, and returns the exit code. Also run in
 * the tests' own process, where a spawned CLI would cost seconds of CPU per command.
 */
export async function runCli(argv: string[], env: Record<string, string | undefined>, stdout: Output, stderr: Output): Promise<number> {
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
