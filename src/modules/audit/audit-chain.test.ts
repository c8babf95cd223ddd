import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { type AuditRecord, canonicalJson, hashedText } from './audit-chain.ts'

const text = fc.option(fc.string({ maxLength: 12 }), { nil: null })
// What a record edited in the table may hold instead: other types, keys missing or added.
const edited = fc.oneof(fc.constant(undefined), fc.integer(), fc.boolean())
const pair = (a: string, b: string) =>
  fc.oneof(
    { arbitrary: fc.record({ [a]: text, [b]: text }), weight: 4 },
    fc.record({ [a]: fc.oneof(text, edited), [b]: fc.oneof(text, edited) }, { requiredKeys: [] }),
    fc.record({ [a]: text, [b]: text, extra: fc.jsonValue({ maxDepth: 1 }) }),
  )
const record: fc.Arbitrary<Omit<AuditRecord, 'hash'>> = fc.record({
  uid: fc.uuid(),
  created_at: fc.string({ maxLength: 30 }),
  action: fc.string({ maxLength: 20 }),
  actor: fc.oneof(fc.constant({ cli: true as const }), pair('client_id', 'tenant_id')) as fc.Arbitrary<AuditRecord['actor']>,
  target: fc.option(pair('id', 'type'), { nil: null }) as fc.Arbitrary<AuditRecord['target']>,
  ip: text,
  request_id: text,
  outcome: fc.constantFrom('ok' as const, 'denied' as const, 'failed' as const),
  details: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) as fc.Arbitrary<Record<string, unknown>>,
})

describe('hashedText', () => {
  it('is the canonical JSON of the record and the previous hash, for any record, edited ones too', () => {
    fc.assert(
      fc.property(record, fc.string({ maxLength: 64 }), (r, prev) => {
        const { uid, created_at, action, actor, target, ip, request_id, outcome, details } = r
        expect(hashedText(r, prev)).toBe(canonicalJson({ prev_hash: prev, uid, created_at, action, actor, target, ip, request_id, outcome, details }))
      }),
      { numRuns: 2000 },
    )
  })
})
