import { randomFillSync } from 'node:crypto'

let lastMs = 0
let counter = 0

// Random bytes drawn 256 ids at a time: one call into the CSPRNG per id cost more than the rest of
// making it (docs/performance.md, "What bounds each scenario"). Each id takes its own 16 bytes once.
const POOL_IDS = 256
const pool = Buffer.alloc(16 * POOL_IDS)
let poolOffset = pool.length

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids made in
 * one millisecond in the order they were made, then random bits. Ids of this process sort in the
 * order they were made, so records written together with one timestamp (the fills of one
 * matching pass) still list in execution order after their `created_at`.
 */
export function uuidv7(): string {
  let ms = Date.now()
  if (ms <= lastMs) {
    ms = lastMs
    if (++counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next one rather than break the order.
      ms = ++lastMs
      counter = 0
    }
  } else {
    lastMs = ms
    counter = 0
  }
  if (poolOffset === pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const bytes = pool.subarray(poolOffset, (poolOffset += 16))
  bytes.writeUIntBE(ms, 0, 6)
  bytes[6] = 0x70 | (counter >> 8)
  bytes[7] = counter & 0xff
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
