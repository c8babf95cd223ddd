import type { Config } from '../core/config.ts'
import { validationError } from '../core/errors.ts'
import type { Db } from '../db/database.ts'
import { setSymbolLimits } from '../modules/exchange/symbols/symbol-limits.ts'

/** `symbol set-limits SYMBOL [--max-qty DEC|none] [--min-notional DEC|none]` (docs/api.md, "Order limits"). */
export async function runOrderLimitsCommand(
  _config: Config,
  db: Db,
  area: string | undefined,
  command: string | undefined,
  rest: string[],
  values: { 'max-qty'?: string | undefined; 'min-notional'?: string | undefined },
  print: (value: unknown) => void,
): Promise<boolean> {
  if (`${area} ${command}` !== 'symbol set-limits') return false
  // Refused as the operation refuses its input, so the message names SYMBOL (cli-commands.ts, ARGUMENT_NAMES).
  if (rest.length > 1) throw validationError([{ type: 'value_error.extra', loc: ['body', 'symbol'], msg: 'symbol set-limits takes one SYMBOL' }])
  print(await setSymbolLimits(db, rest[0], values['max-qty'], values['min-notional']))
  return true
}
