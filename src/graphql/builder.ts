import SchemaBuilder from '@pothos/core'
import DataloaderPlugin from '@pothos/plugin-dataloader'
import ZodPlugin from '@pothos/plugin-zod'

import type { RequestContext } from '../core/context.ts'
import { validationError } from '../core/errors.ts'
import { zodErrorToDetail } from '../core/validation.ts'

export const builder = new SchemaBuilder<{
  Context: RequestContext
  DefaultFieldNullability: false
  Scalars: {
    Decimal: { Input: string; Output: string }
    DateTime: { Input: string; Output: string }
    JSON: { Input: unknown; Output: unknown }
  }
}>({
  plugins: [ZodPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  zod: {
    validationError: (error, args) => validationError(zodErrorToDetail(error, 'body', args)),
  },
})

builder.queryType({})
builder.mutationType({})
builder.subscriptionType({})
