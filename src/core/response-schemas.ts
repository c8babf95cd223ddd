import { z } from 'zod'

import { type COMMON_FIELDS, headLabel } from './lists.ts'

/**
 * Zod schemas of what the REST face answers, for the OpenAPI document (docs/contracts.md). The
 * handlers render records by hand (fast paths); these describe the result, and the contract tests
 * check every answer of the HTTP suite against the document built from them, so a field rendered
 * but not described (or described but not rendered) fails a test.
 */

/** `2026-11-25T21:30:00.123456`: UTC without a zone, exactly 6 fraction digits (docs/api.md, "Conventions"). */
export const timestampText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/)
  .meta({
    id: 'Timestamp',
    description: 'UTC date and time without a zone suffix, exactly 6 fraction digits (microseconds). Not RFC 3339 `date-time`, which requires a zone.',
    example: '2026-11-25T21:30:00.123456',
  })

/** A decimal as PostgreSQL prints a `numeric`: trailing zeros kept, never an exponent. */
export const decimalString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ id: 'Decimal', description: 'An exact decimal number as text (never a JSON number); trailing zeros are kept as stored.', example: '0.0100' })

export const uuidText = z.uuid().meta({ id: 'Uuid', example: '5f0c7e4a-3c1b-4a53-9b7e-2f0d6c1a8e44' })

/** The fields every record starts with (docs/api.md, "Conventions"), in the reference's order. */
export const commonRecordShape = {
  uid: uuidText,
  created_at: timestampText,
  updated_at: timestampText,
  is_deleted: z.boolean(),
  meta_data: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Always null so far; reserved by the reference.' }),
  user_id: z.string().meta({ description: 'The client (`sub`) that created the record.' }),
} satisfies Record<(typeof COMMON_FIELDS)[number], z.ZodType>

const head = z.object({ en: z.string() }).meta({ id: 'Head', description: 'A display label of a field.', example: { en: 'Created At' } })

/** The `heads` of a list: exactly one label per listed field. */
export function headsSchema(fields: readonly string[]) {
  return z
    .object(Object.fromEntries(fields.map((field) => [field, head])))
    .meta({ description: 'Display labels keyed by field name.', example: Object.fromEntries(fields.slice(0, 3).map((f) => [f, { en: headLabel(f) }])) })
}

/** The list envelope of the reference (2.5): `heads`, `items`, `total`, `offset`, `limit`. */
export function listEnvelopeSchema(id: string, item: z.ZodType, headFields: readonly string[]) {
  return z
    .object({
      heads: headsSchema(headFields),
      items: z.array(item),
      total: z.int().min(0).meta({ description: 'Records matching the filters, over all pages.' }),
      offset: z.int().min(0),
      limit: z.int().min(1).max(100),
    })
    .meta({ id })
}
