import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { servedRoutes } from '../../src/app/routes.ts'
import { loadConfig } from '../../src/core/config.ts'
import { registerContractChecks } from './contract.ts'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
// `node --import tsx` runs the script in this one process. The `tsx` binary would
// start it as a grandchild, and a SIGKILL (the crash tests) would leave that alive.
const TS_NODE_ARGS = ['--import', 'tsx']
const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

// A CLI command lives a second: compiling the database's WebAssembly (9 MB) again with the
// optimising compiler, which pays off only in a long-lived process, would be a quarter of its CPU.
const SHORT_LIVED_ARGS = ['--liftoff-only']

function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, ...TS_NODE_ARGS, script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  child.on('exit', () => running.delete(child))
  return child
}

/** Environment for child processes: the test's own, less anything that would point them elsewhere. */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env }
  delete base.DATABASE_URL
  delete base.DATA_DIR
  delete base.PORT
  // As in startTestServer: high rate limits unless a test sets its own.
  return { ...base, LOG_LEVEL: 'info', RATE_LIMIT_LOGIN_PER_MIN: '1000000', RATE_LIMIT_API_PER_MIN: '100000000', RATE_LIMIT_ANON_PER_MIN: '100000000', ...env }
}

export interface CommandResult {
  code: number | null
  stdout: string
  stderr: string
}

export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CommandResult> {
  return runTs('src/app/cli.ts', args, env, SHORT_LIVED_ARGS)
}

export function runTs(script: string, args: string[], env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTs(script, args, childEnv(env), nodeArgs)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

export interface ServerProcess {
  child: ChildProcess
  url: string
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/** Starts `src/app/main.ts` in its own process and waits until it listens. */
export function startServerProcess(env: Record<string, string | undefined>, timeoutMs = 180_000): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawnTs('src/app/main.ts', [], childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }))
    let output = ''
    let settled = false
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    const timer = setTimeout(() => {
      if (settled) return
      settled = true
      child.kill('SIGKILL')
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (d: Buffer) => {
      output += d
      const m = /"url":"(http:\/\/[^"]+)"/.exec(output)
      if (m && !settled) {
        settled = true
        clearTimeout(timer)
        // The process serves the application's routes: its answers are checked against openapi.json too.
        const unregister = registerContractChecks(m[1]!, servedRoutes(loadConfig(childEnv(env))))
        void exited.then(unregister)
        resolve({
          child,
          url: m[1]!,
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal)
            return exited
          },
        })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before listening:\n${output}`))
    })
  })
}
