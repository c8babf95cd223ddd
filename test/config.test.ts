import { describe, expect, it } from 'vitest'

import { runTs } from './helpers/process.ts'

describe('the server refusing its configuration', () => {
  it('stops the server at start with that one line', async () => {
    const result = await runTs('src/app/main.ts', [], { PORT: 'not-a-port' })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('Invalid configuration: PORT must be an integer between 0 and 65535\n')
  })
})
