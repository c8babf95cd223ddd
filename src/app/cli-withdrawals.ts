import type { Config } from '../core/config.ts'
import type { Db } from '../db/database.ts'
import { setApprovalThreshold, setDailyLimit } from '../modules/exchange/withdrawals/withdrawal-settings.ts'

/** How the withdrawal settings' arguments are named on the command line (a refused one is reported by it). */
export const WITHDRAWAL_ARGUMENT_NAMES: Record<string, Record<string, string>> = {
  'account set-limit': { tenant_id: '--tenant' },
  'account set-threshold': { approval_threshold: 'AMOUNT' },
}

export class WithdrawalUsageError extends Error {}

/**
 * The withdrawal settings' commands (docs/accounts.md, "Withdrawals"): true when it handled the
 * command. Usage mistakes throw `WithdrawalUsageError`, which the caller reports as its own.
 */
export async function runWithdrawalsCommand(
  _config: Config,
  db: Db,
  area: string | undefined,
  command: string | undefined,
  rest: string[],
  values: Record<string, string | boolean | undefined>,
  print: (value: unknown) => void,
): Promise<boolean> {
  const text = (flag: string) => {
    const value = values[flag]
    if (typeof value !== 'string' || value === '') throw new WithdrawalUsageError(`${area} ${command} needs --${flag}`)
    return value
  }
  switch (`${area} ${command}`) {
    case 'account set-limit': {
      if (rest.length !== 0) throw new WithdrawalUsageError('account set-limit takes 0 arguments')
      print(await setDailyLimit(db, text('tenant'), text('currency'), text('daily')))
      return true
    }
    case 'account set-threshold': {
      if (rest.length !== 1) throw new WithdrawalUsageError('account set-threshold takes 1 argument')
      print(await setApprovalThreshold(db, text('currency'), rest[0]!))
      return true
    }
    default:
      return false
  }
}
