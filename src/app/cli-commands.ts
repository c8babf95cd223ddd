import { parseArgs } from 'node:util'

import { type Config, ConfigError } from '../core/config.ts'
import { AppError } from '../core/errors.ts'
import { type Db, EmbeddedDatabaseBusy } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import {
  createClient,
  deactivateClient,
  DEFAULT_ADMIN_SCOPES,
  listClients,
  revokeSessionsOfClient,
  ROLES,
  rotateClientSecret,
} from '../modules/auth/clients/clients.ts'
import { encryptStoredKeys, listSigningKeys, rotateSigningKeys } from '../modules/auth/keys/signing-keys.ts'
import { ledgerEntryRecord } from '../modules/exchange/accounts/account-records.ts'
import { accountFees, ACCOUNTS_READ, ACCOUNTS_WRITE, checkAccounts, transfer } from '../modules/exchange/accounts/accounts.ts'
import { ORDERS_READ, ORDERS_WRITE } from '../modules/exchange/orders/orders.ts'
import { seedDemoMarket } from '../modules/exchange/symbols/seed.ts'
import { setReferencePrice, setSymbolActive, setSymbolFees } from '../modules/exchange/symbols/symbol-admin.ts'
import { SYMBOLS_READ } from '../modules/exchange/symbols/symbols.ts'
import { ACCOUNTS_WITHDRAW } from '../modules/exchange/withdrawals/withdrawals.ts'
import { AUDIT_OPTIONS, AUDIT_USAGE, recordCommand, runAuditCommand } from './cli-audit.ts'
import { runDpopCommand } from './cli-dpop.ts'
import { runOrderLimitsCommand } from './cli-order-limits.ts'
import { runStatementsCommand } from './cli-statements.ts'
import { runWithdrawalsCommand, WITHDRAWAL_ARGUMENT_NAMES, WithdrawalUsageError } from './cli-withdrawals.ts'

export const USAGE = `Usage: npm run --silent cli -- <command>   (or: bin/exchange-cli.mjs <command>)

  client create --name NAME [--tenant UUID] [--roles a,b] [--scopes x,y] [--dpop required] [--out FILE]
  client list
  client deactivate CLIENT_ID
  client rotate-secret CLIENT_ID      (also revokes the client's sessions)
  client revoke-sessions CLIENT_ID
  client set-dpop CLIENT_ID required|off   (required also revokes the client's sessions)
  keys list
  keys rotate
  keys encrypt                        (encrypts stored private keys with KEY_ENCRYPTION_KEY)
  symbol set-reference-price SYMBOL PRICE
  symbol activate SYMBOL
  symbol deactivate SYMBOL
  symbol set-fees SYMBOL MAKER_PERCENT TAKER_PERCENT
  symbol set-limits SYMBOL [--max-qty DEC|none] [--min-notional DEC|none]
  account deposit --tenant UUID --currency CODE --amount DEC --reference TEXT
  account withdraw --tenant UUID --currency CODE --amount DEC --reference TEXT
  account fees                        (fees collected, per currency)
  account check                       (conservation, ledger and holds; exit 1 naming each discrepancy)
  account set-limit --tenant UUID --currency CODE --daily AMOUNT|none   (daily withdrawal limit)
  account set-threshold --currency CODE AMOUNT|none   (two approvals from this amount on)
  account statement --tenant UUID --currency CODE --from ISO --to ISO [--format json|csv|camt053]
${AUDIT_USAGE}
  db migrate
  db seed

--out FILE (any command) writes its output to FILE instead of stdout, creating it with mode 0600;
it refuses a FILE that exists. Every command but the listings and checks leaves an audit record.

Uses DATABASE_URL (PostgreSQL) when set, else the embedded database in DATA_DIR: through the
server holding it when one runs, directly otherwise.`

export class UsageError extends Error {}
/** No such command: nothing ran, so nothing is audited. */
class UnknownCommand extends UsageError {}

/**
 * Every scope the service checks (the operations' declarations; the admin default holds them all):
 * a client granted anything else holds a scope nothing asks for, so the CLI refuses it.
 */
export const KNOWN_SCOPES: readonly string[] = [
  ...new Set([...DEFAULT_ADMIN_SCOPES, SYMBOLS_READ, ORDERS_READ, ORDERS_WRITE, ACCOUNTS_READ, ACCOUNTS_WRITE, ACCOUNTS_WITHDRAW]),
]
const scopeParts = (index: 0 | 1) => new Set(KNOWN_SCOPES.map((scope) => scope.split(':')[index]!))
const RESOURCES = scopeParts(0)
const ACTIONS = scopeParts(1)

/** `orders:read`, or a wildcard form (`orders:*`, `*:read`, `*:*`) whose named parts are known. */
function knownScope(scope: string): boolean {
  if (KNOWN_SCOPES.includes(scope)) return true
  const parts = scope.split(':')
  if (parts.length !== 2) return false
  const [resource, action] = parts as [string, string]
  return (resource === '*' || RESOURCES.has(resource)) && (action === '*' || ACTIONS.has(action))
}

/** Names a refused role or scope (bounded: the text is echoed) and the valid ones. */
function checkNames(flag: string, given: string[] | undefined, known: (name: string) => boolean, valid: string): void {
  const unknown = given?.filter((name) => !known(name))
  if (!unknown?.length) return
  const shown = unknown.map((name) => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)).slice(0, 5)
  throw new UsageError(`Unknown ${flag.slice(2, -1)}${unknown.length === 1 ? '' : 's'} in ${flag}: ${shown.join(', ')}. Valid: ${valid}`)
}

/**
 * How the arguments of each command are named on its command line, by the input field they fill:
 * a refused value is reported by the flag or argument the operator typed, not by a body location.
 */
const ARGUMENT_NAMES: Record<string, Record<string, string>> = {
  'client create': { tenant_id: '--tenant', dpop: '--dpop' },
  'client set-dpop': { client_id: 'CLIENT_ID', dpop: 'required|off' },
  'account deposit': { tenant_id: '--tenant' },
  'account withdraw': { tenant_id: '--tenant' },
  'account statement': { tenant_id: '--tenant', arguments: 'arguments' },
  'symbol set-reference-price': { symbol: 'SYMBOL', price: 'PRICE' },
  'symbol set-fees': { symbol: 'SYMBOL', maker: 'MAKER_PERCENT', taker: 'TAKER_PERCENT' },
  ...WITHDRAWAL_ARGUMENT_NAMES,
  'client set-allowed-ips': { cidrs: 'CIDR[,CIDR…]' },
  'symbol set-limits': { symbol: 'SYMBOL' },
}

/** An operation refused a command's arguments: `failure` names each by its flag. */
class ArgumentsRefused extends Error {
  constructor(
    readonly error: AppError,
    readonly names: Record<string, string>,
  ) {
    super(error.message)
  }
}

const kebab = (field: string) =>
  field
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()

/** A `detail` location as the command line spelled it: `["body", "amount"]` is `--amount`. */
function argumentName(loc: (string | number)[], names: Record<string, string>): string {
  const [where, field, ...rest] = loc
  if (where !== 'body' || typeof field !== 'string') return JSON.stringify(loc)
  return `${names[field] ?? `--${kebab(field)}`}${rest.map((part) => `[${part}]`).join('')}`
}

/** `account check` found discrepancies: each is one line on stderr, and the exit code is 1. */
class CheckFailed extends Error {
  constructor(readonly lines: string[]) {
    super(`account check: ${lines.length} discrepanc${lines.length === 1 ? 'y' : 'ies'}`)
  }
}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** Where a command's output goes: the CLI's stdout, or the admin channel's answer. */
export type Output = (text: string) => void

/**
 * Runs one CLI command (`argv` without the program) against `db`: in the CLI's process, or in the
 * server's when the CLI reaches it over the admin channel (`admin-channel.ts`). Throws what
 * `failure` turns into a message and an exit code.
 */
export async function runCommand(config: Config, db: Db, argv: string[], stdout: Output): Promise<void> {
  const printed: unknown[] = []
  const print = (value: unknown): void => {
    printed.push(value)
    stdout(`${JSON.stringify(value)}\n`)
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tenant: { type: 'string' },
      roles: { type: 'string' },
      scopes: { type: 'string' },
      currency: { type: 'string' },
      amount: { type: 'string' },
      reference: { type: 'string' },
      daily: { type: 'string' },
      dpop: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      format: { type: 'string' },
      'max-qty': { type: 'string' },
      'min-notional': { type: 'string' },
      ...AUDIT_OPTIONS,
    },
  })
  const [area, command, ...rest] = positionals
  const needs = (n: number) => {
    if (rest.length !== n) throw new UsageError(`${area} ${command} takes ${n} argument${n === 1 ? '' : 's'}`)
    return rest
  }
  await migrateToLatest(db)
  try {
    await run()
  } catch (error) {
    // A record that cannot be written (the database is down) must not hide why the command failed.
    if (area && command && !(error instanceof UnknownCommand))
      await recordCommand(db, { area, command, rest, values }, { printed, error }).catch(() => undefined)
    if (error instanceof AppError && error.detail) throw new ArgumentsRefused(error, ARGUMENT_NAMES[`${area} ${command}`] ?? {})
    throw error
  }
  await recordCommand(db, { area: area!, command: command!, rest, values }, { printed })

  async function run(): Promise<void> {
    switch (`${area} ${command}`) {
      case 'client create': {
        if (!values.name) throw new UsageError('client create needs --name')
        const roles = list(values.roles)
        const scopes = list(values.scopes)
        checkNames('--roles', roles, (role) => (ROLES as readonly string[]).includes(role), ROLES.join(', '))
        checkNames('--scopes', scopes, knownScope, `${KNOWN_SCOPES.join(', ')}; * for either part (orders:*, *:read, *:*)`)
        const dpop = values.dpop as 'required' | 'off' | undefined
        return print(
          await createClient(db, { name: values.name, tenant_id: values.tenant, roles: roles as (typeof ROLES)[number][] | undefined, scopes, dpop }),
        )
      }
      case 'client list':
        for (const client of await listClients(db)) print(client)
        return
      case 'client deactivate':
        return print(await deactivateClient(db, needs(1)[0]!))
      case 'client rotate-secret':
        return print(await rotateClientSecret(db, needs(1)[0]!))
      case 'client revoke-sessions':
        return print(await revokeSessionsOfClient(db, needs(1)[0]!))
      case 'keys list':
        for (const key of await listSigningKeys(db)) print(key)
        return
      case 'keys encrypt': {
        needs(0)
        if (!config.keyEncryptionKey) throw new UsageError('keys encrypt needs KEY_ENCRYPTION_KEY (32 random bytes in base64url)')
        return print({ encrypted: await encryptStoredKeys(db, config.keyEncryptionKey) })
      }
      case 'keys rotate':
        return print(await rotateSigningKeys(db, config.keyEncryptionKey, Math.max(config.accessTokenTtl, config.refreshTokenTtl) + config.clockSkew))
      case 'symbol set-reference-price': {
        const [symbol, price] = needs(2)
        return print(await setReferencePrice(db, symbol!, price!))
      }
      case 'symbol activate':
        return print(await setSymbolActive(db, needs(1)[0]!, true))
      case 'symbol deactivate':
        return print(await setSymbolActive(db, needs(1)[0]!, false))
      case 'symbol set-fees': {
        const [symbol, maker, taker] = needs(3)
        return print(await setSymbolFees(db, symbol!, maker!, taker!))
      }
      case 'account deposit':
      case 'account withdraw': {
        needs(0)
        for (const flag of ['tenant', 'currency', 'amount', 'reference'] as const) {
          if (!values[flag]) throw new UsageError(`account ${command} needs --${flag}`)
        }
        const { entry } = await transfer(db, {
          tenant_id: values.tenant,
          currency: values.currency,
          amount: values.amount,
          kind: command === 'deposit' ? 'deposit' : 'withdrawal',
          reference: values.reference,
        })
        return print(ledgerEntryRecord(entry))
      }
      case 'account fees':
        needs(0)
        for (const fee of await accountFees(db)) print(fee)
        return
      case 'account check': {
        needs(0)
        const { currencies, discrepancies } = await checkAccounts(db)
        if (discrepancies.length > 0) throw new CheckFailed(discrepancies.map((d) => `${d.check}: ${d.message}`))
        return print({ status: 'ok', currencies })
      }
      case 'db migrate':
        return print({ status: 'migrated' })
      case 'db seed':
        return print(await seedDemoMarket(db))
      default:
        try {
          if (await runWithdrawalsCommand(config, db, area, command, rest, values, print)) return
        } catch (error) {
          throw error instanceof WithdrawalUsageError ? new UsageError(error.message) : error
        }
        if (await runAuditCommand(config, db, area, command, rest, values, print)) return
        if (await runDpopCommand(config, db, area, command, rest, values, print)) return
        if (await runStatementsCommand(config, db, area, command, rest, values, stdout)) return
        if (await runOrderLimitsCommand(config, db, area, command, rest, values, print)) return
        throw new UnknownCommand(area ? `Unknown command: ${positionals.join(' ')}` : 'No command given')
    }
  }
}

/** The message (for stderr) and exit code of a command that threw `error`. */
export function failure(error: unknown): { stderr: string; code: number } {
  if (error instanceof UsageError) return { stderr: `${error.message}\n\n${USAGE}\n`, code: 2 }
  if (error instanceof CheckFailed) return { stderr: `${[error.message, ...error.lines].join('\n')}\n`, code: 1 }
  if (error instanceof ArgumentsRefused) {
    const lines = error.error.detail!.map((issue) => `  ${argumentName(issue.loc, error.names)}: ${issue.msg}`)
    return { stderr: `${[error.message, ...lines].join('\n')}\n`, code: 1 }
  }
  if (error instanceof AppError) {
    const detail = error.detail ? ` ${JSON.stringify(error.detail)}` : ''
    return { stderr: `${error.message}${detail}\n`, code: 1 }
  }
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseBusy) return { stderr: `${error.message}\n`, code: 1 }
  if (error instanceof TypeError && (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return { stderr: `${error.message}\n\n${USAGE}\n`, code: 2 }
  }
  return { stderr: `${error instanceof Error ? error.message : String(error)}\n`, code: 1 }
}
