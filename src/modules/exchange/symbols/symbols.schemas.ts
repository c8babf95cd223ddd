import { z } from 'zod'

import { COMMON_FIELDS, listQuerySchema } from '../../../core/lists.ts'
import { commonRecordShape, decimalString, listEnvelopeSchema } from '../../../core/response-schemas.ts'
import { queryBool } from '../../../core/validation.ts'

/** The symbol fields of the reference's symbol record, in its order, after the common ones. */
export const SYMBOL_FIELDS = [
  ...COMMON_FIELDS,
  'symbol',
  'price_precision',
  'quantity_precision',
  'min_order_quantity',
  'tick_size',
  'daily_fluctuation_price_limit_percent',
  'maker_fee_percent',
  'taker_fee_percent',
  'max_order_quantity',
  'min_notional',
  'description',
  'is_active',
] as const

/** The reference's list envelope names `id` and `revision_id` among the heads although items never carry them. */
export const SYMBOL_HEAD_FIELDS = ['id', 'revision_id', ...SYMBOL_FIELDS] as const

export const SYMBOL_ORDERABLE = SYMBOL_FIELDS.filter((f) => f !== 'meta_data' && f !== 'is_deleted')

export const MAX_SYMBOL_LENGTH = 32

/** Currency codes are upper case; `usd-irr` names the same market as `USD-IRR`. */
export const symbolName = z.string().min(1).max(MAX_SYMBOL_LENGTH, { abort: true }).toUpperCase()

export const symbolListQuery = listQuerySchema(
  {
    symbol: symbolName.optional().meta({ description: 'One symbol, case-insensitive.', example: 'USD-IRR' }),
    is_active: queryBool.optional().meta({ description: '`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`).' }),
  },
  SYMBOL_ORDERABLE,
)
export type SymbolListQuery = z.infer<typeof symbolListQuery>

// --- Answers (docs/contracts.md) ---

export const symbolParams = z.object({
  symbol: z.string().meta({ description: 'A symbol name, `<BASE>-<QUOTE>`; case-insensitive.', example: 'USD-IRR' }),
})

/** A currency property object (reference 2.4). */
export const currencyPropertySchema = z
  .object({
    name: z.object({ fa: z.string(), en: z.string() }),
    symbol: z.string().meta({ description: 'Currency code.' }),
    precision: z.int(),
    icon: z.string().meta({ description: "URL of the currency's icon." }),
    is_crypto: z.boolean(),
    color: z.string().regex(/^#[0-9a-f]{6}$/),
    unit_value_irr: z.int().min(1).meta({ description: 'Value of one unit in rials (1 for the rial).' }),
  })
  .meta({
    id: 'CurrencyProperty',
    example: {
      name: { fa: 'دلار آمریکا', en: 'US Dollar' },
      symbol: 'USD',
      precision: 2,
      icon: '/icons/usd.svg',
      is_crypto: false,
      color: '#3c3b6e',
      unit_value_irr: 1050000,
    },
  })

/** A symbol record (reference 2.3), in its field order. */
export const symbolRecordSchema = z
  .object({
    ...commonRecordShape,
    symbol: z.string().meta({ description: '`<BASE>-<QUOTE>`.', example: 'USD-IRR' }),
    price_precision: z.int().meta({ description: 'Decimal places a price may have; may be 0.' }),
    quantity_precision: z.int().meta({ description: 'Decimal places a quantity may have; negative: a multiple of 10^-p.' }),
    min_order_quantity: decimalString,
    tick_size: decimalString,
    daily_fluctuation_price_limit_percent: decimalString,
    maker_fee_percent: decimalString.meta({
      description: "Percent of a fill's notional the resting (maker) order pays, in the quote currency.",
      example: '0.1',
    }),
    taker_fee_percent: decimalString.meta({
      description: "Percent of a fill's notional the arriving (taker) order pays, in the quote currency.",
      example: '0.2',
    }),
    max_order_quantity: decimalString.nullable().meta({
      description: 'The largest quantity one order may have (an amend too); null: no limit. Beyond it: 422 `value_error.number.not_le`.',
      example: '1000000',
    }),
    min_notional: decimalString.nullable().meta({
      description:
        'The smallest price × quantity an order may have, in the quote currency (a market order at the reference price); null: no minimum. Below it: 422 `value_error.min_notional`.',
      example: '10000000',
    }),
    description: z.string(),
    is_active: z.boolean(),
    properties: z.record(z.string(), currencyPropertySchema).meta({ description: 'Both currencies of the pair, keyed by code.' }),
  })
  .meta({ id: 'Symbol' })

export const symbolListSchema = listEnvelopeSchema('SymbolList', symbolRecordSchema, SYMBOL_HEAD_FIELDS)
