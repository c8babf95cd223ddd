/**
 * Where the first invalid UTF-8 sequence starts (as Python reports a UnicodeDecodeError's position),
 * in one pass: a lead byte says how many continuation bytes follow and what range the first may
 * take, which also refuses overlong forms, surrogates and code points above U+10FFFF.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      i++
      continue
    }
    let count: number
    let min = 0x80
    let max = 0xbf
    if (lead >= 0xc2 && lead <= 0xdf) count = 1
    else if (lead >= 0xe0 && lead <= 0xef) {
      count = 2
      if (lead === 0xe0) min = 0xa0
      else if (lead === 0xed) max = 0x9f
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      count = 3
      if (lead === 0xf0) min = 0x90
      else if (lead === 0xf4) max = 0x8f
    } else return i
    for (let k = 1; k <= count; k++) {
      const next = bytes[i + k]
      if (next === undefined || next < (k === 1 ? min : 0x80) || next > (k === 1 ? max : 0xbf)) return i
    }
    i += count + 1
  }
  return bytes.length
}

class JsonSyntax extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message)
  }
}

/** A small JSON scanner used only after JSON.parse has failed, to say where and why. */
export function locateJsonError(text: string): { position: number; message: string } {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const fail = (message: string, at = i): never => {
    throw new JsonSyntax(at, message)
  }
  const value = (depth: number): void => {
    if (depth > 10_000) fail('Maximum nesting depth exceeded')
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes')
        string()
        ws()
        if (text[i] !== ':') fail("Expecting ':' delimiter")
        i++
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail("Expecting ',' delimiter")
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail("Expecting ',' delimiter")
      }
    }
    if (c === '"') return string()
    if (text.startsWith('true', i)) return void (i += 4)
    if (text.startsWith('false', i)) return void (i += 5)
    if (text.startsWith('null', i)) return void (i += 4)
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (m && m[0] !== '-' && m[0].length > 0) return void (i += m[0].length)
    fail('Expecting value')
  }
  const string = () => {
    const start = i
    i++
    while (i < text.length) {
      const ch = text.charCodeAt(i)
      if (ch === 0x22) {
        i++
        return
      }
      if (ch === 0x5c) {
        const esc = text[i + 1]
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape', i + 1)
          i += 6
          continue
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('Invalid \\escape', i)
        i += 2
        continue
      }
      if (ch < 0x20) fail('Invalid control character at', i)
      i++
    }
    fail('Unterminated string starting at', start)
  }
  try {
    value(0)
    ws()
    if (i < text.length) fail('Extra data')
    return { position: Math.min(i, text.length), message: 'Expecting value' }
  } catch (e) {
    if (e instanceof JsonSyntax) return { position: e.position, message: e.message }
    if (e instanceof RangeError) return { position: i, message: 'Maximum nesting depth exceeded' }
    throw e
  }
}
