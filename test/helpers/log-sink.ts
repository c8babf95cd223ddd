import { Writable } from 'node:stream'

/** Collects what the server logs, one parsed JSON object per line. */
export class LogSink extends Writable {
  text = ''
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString('utf8')
    done()
  }
  lines(): Record<string, any>[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  }
  requests(): Record<string, any>[] {
    return this.lines().filter((l) => l.msg === 'request')
  }
}
