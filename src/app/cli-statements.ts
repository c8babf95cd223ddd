import type { Config } from '../core/config.ts'
import { validationError } from '../core/errors.ts'
import type { Db } from '../db/database.ts'
import { statementChunks } from '../modules/exchange/accounts/statement-formats.ts'
import { cliStatement } from '../modules/exchange/accounts/statements.ts'

type Output = (text: string) => void

/**
 * `account statement --tenant UUID --currency CODE --from ISO --to ISO [--format json|csv|camt053]`
 * (docs/accounts.md, "Statements"): the statement written page by page as it is read, as the REST
 * face streams it (`--out FILE` is the CLI's, for every command). Answers whether it handled the command.
 */
export async function runStatementsCommand(
  _config: Config,
  db: Db,
  area: string | undefined,
  command: string | undefined,
  rest: string[],
  values: Record<string, string | boolean | undefined>,
  stdout: Output,
): Promise<boolean> {
  if (area !== 'account' || command !== 'statement') return false
  // Refusals name the flags (cli-commands.ts, ARGUMENT_NAMES): a missing one is `value_error.missing`.
  if (rest.length !== 0) {
    throw validationError([
      { type: 'value_error.extra', loc: ['body', 'arguments'], msg: 'account statement takes no arguments, only flags', input: rest.join(' ') },
    ])
  }
  const text = (flag: string) => (typeof values[flag] === 'string' ? values[flag] : undefined)
  const { statement, format } = await cliStatement(db, {
    tenant_id: text('tenant'),
    currency: text('currency'),
    from: text('from'),
    to: text('to'),
    format: text('format'),
  })
  for await (const chunk of statementChunks(statement, format)) stdout(chunk)
  // A terminal's prompt on a line of its own; CSV rows already end with CRLF.
  if (format !== 'csv') stdout('\n')
  return true
}
