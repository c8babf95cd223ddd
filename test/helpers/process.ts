import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

export interface ServerProcess {
  url: string
  stop: () => Promise<void>
}

/** Starts `npx tsx src/main.ts` as a separate process with `env`, and waits until it answers. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const child: ChildProcess = spawn('npx', ['tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group, so stopping it stops npx and node alike
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server process exited: ${stderr}`)
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, stop }
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`server process did not start: ${stderr}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Runs the operator CLI in its own process; returns its parsed JSON output line. */
export async function runCli(args: string[], env: Record<string, string>): Promise<any> {
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } })
  return JSON.parse(stdout)
}
