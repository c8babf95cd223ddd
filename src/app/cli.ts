import { loadConfig } from '../core/config.ts'
import { EmbeddedDatabaseBusy, openDatabase } from '../db/database.ts'
import { adminSocketPath, runInServer } from './admin-channel.ts'
import { failure, runCommand, USAGE } from './cli-commands.ts'

const stdout = (text: string) => void process.stdout.write(text)
const stderr = (text: string) => void process.stderr.write(text)

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (argv[0] === '--help' || argv[0] === 'help') {
    stdout(`${USAGE}\n`)
    return 0
  }
  // No command is a mistake (a script missing its arguments), not a request for help.
  if (argv.length === 0) {
    stderr(`No command given\n\n${USAGE}\n`)
    return 2
  }
  const config = loadConfig()
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
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    const { stderr: message, code } = failure(error)
    stderr(message)
    process.exit(code)
  },
)
