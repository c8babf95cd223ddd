import { ConfigError, loadConfig } from '../core/config.ts'
import { EmbeddedDatabaseBusy } from '../db/database.ts'
import { listen } from '../http/listen.ts'
import { bufferedStdout, createLogger } from '../observability/logger.ts'
import { serveAdminChannel } from './admin-channel.ts'
import { DEMO_PERSISTED_DOCUMENTS, demoEnvironment, prepareFirstRun } from './first-run.ts'
import { createApp } from './server.ts'
import { closeServices, openServices } from './services.ts'

const SHUTDOWN_DEADLINE_MS = 20_000

async function main() {
  let config
  const env = demoEnvironment(process.env)
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
  const stdout = bufferedStdout()
  const logger = createLogger(config, stdout.destination)
  // A stray rejection is a bug to log, not a reason to drop every in-flight request.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'))
  // Still fatal (the process state is unknown), but said in the log's own format.
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception')
    process.exit(1)
  })
  if (env.GRAPHQL_PERSISTED_DOCUMENTS !== process.env.GRAPHQL_PERSISTED_DOCUMENTS) {
    logger.info({ file: DEMO_PERSISTED_DOCUMENTS }, "embedded demo: serving the dashboard example's persisted documents (GRAPHQL_PERSISTED_DOCUMENTS unset)")
  }
  // The first start on the embedded database takes a while (initdb, every migration, the seed).
  logger.info({ database: config.databaseUrl ? 'postgres' : 'pglite' }, 'starting: opening the database and applying migrations')
  let services
  try {
    services = await openServices(config, logger)
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusy) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
  const demoFile = await prepareFirstRun(services)
  // The embedded database is this process's alone: the CLI runs its commands here (admin-channel.ts).
  const admin = services.database.kind === 'pglite' ? await serveAdminChannel(config, services.database.db, logger) : undefined
  const running = await listen(createApp(services), config.port, config.host, {
    idleSeconds: config.connectionIdleSeconds,
    perAddress: config.maxConnectionsPerAddress,
  })
  logger.info(
    { url: running.url, graphql: `${running.url}/graphql`, database: services.database.kind, ...(demoFile ? { demoCredentials: demoFile } : {}) },
    'exchange API listening',
  )
  // Whoever started the process waits for this line.
  stdout.flushSync()
  if (services.database.kind === 'pglite') {
    process.stdout.write(
      `\nExchange API on ${running.url} (GraphiQL: ${running.url}/graphql)\n` +
        `Demo client credentials: ${demoFile ?? `${config.dataDir}/demo-client.json`}\n\n`,
    )
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    // Connections are cut after 10 s; should closing the pools hang too, give up after 20.
    setTimeout(() => {
      logger.error('shutdown did not finish in time')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    // Open event streams end first, so their clients reconnect to another process and resume by id.
    services.events.close()
    await running.close()
    await admin?.close()
    await closeServices(services)
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
