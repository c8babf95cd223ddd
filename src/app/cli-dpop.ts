import type { Config } from '../core/config.ts'
import { AppError } from '../core/errors.ts'
import type { Db } from '../db/database.ts'
import { setClientDpop } from '../modules/auth/dpop/client-dpop.ts'

/** `client set-dpop CLIENT_ID required|off` (docs/dpop.md); true when it handled the command. */
export async function runDpopCommand(
  _config: Config,
  db: Db,
  area: string | undefined,
  command: string | undefined,
  rest: string[],
  _values: Record<string, unknown>,
  print: (value: unknown) => void,
): Promise<boolean> {
  if (area !== 'client' || command !== 'set-dpop') return false
  if (rest.length !== 2) throw new AppError('bad_request', 'client set-dpop takes 2 arguments: CLIENT_ID and required or off')
  print(await setClientDpop(db, { client_id: rest[0]!, dpop: rest[1]! }))
  return true
}
