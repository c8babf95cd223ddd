import { runCli } from './cli-run.ts'

const stdout = (text: string) => void process.stdout.write(text)
const stderr = (text: string) => void process.stderr.write(text)

void runCli(process.argv.slice(2), process.env, stdout, stderr).then((code) => {
  // A command that failed may leave a database half open: its handles must not keep the process.
  if (code === 0) process.exitCode = 0
  else process.exit(code)
})
