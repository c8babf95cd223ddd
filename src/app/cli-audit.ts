import type { Config } from '../core/config.ts'
import { AppError } from '../core/errors.ts'
import { parseInput } from '../core/validation.ts'
import type { Db } from '../db/database.ts'
import { listAuditRecords } from '../modules/audit/audit.repository.ts'
import { auditListQuery } from '../modules/audit/audit.schemas.ts'
import { recordAudit, verifyAuditChain } from '../modules/audit/audit-chain.ts'
import { setAllowedAddresses } from '../modules/auth/addresses/allowed-addresses.ts'

/** The commands that change nothing: every other command leaves an audit record (docs/operations.md, "Audit trail"). */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  'client list',
  'keys list',
  'account fees',
  'account check',
  'account statement',
  'audit verify',
  'audit list',
])

export const AUDIT_USAGE = `  client set-allowed-ips CLIENT_ID CIDR[,CIDR…]|none   (addresses it may log in and call from)
  audit list [--action A] [--actor-client-id UUID] [--target-id ID] [--outcome ok|denied|failed]
             [--created-at-from T] [--created-at-to T] [--offset N] [--limit N]
  audit verify                        (recomputes the hash chain; exit 1 naming the first bad record)`

export const AUDIT_OPTIONS = {
  action: { type: 'string' },
  'actor-client-id': { type: 'string' },
  'target-id': { type: 'string' },
  outcome: { type: 'string' },
  'created-at-from': { type: 'string' },
  'created-at-to': { type: 'string' },
  offset: { type: 'string' },
  limit: { type: 'string' },
} as const

/** `audit verify` found the chain broken: the message names the first bad record; exit 1. */
export class ChainBroken extends Error {}

type Values = Record<string, string | boolean | undefined>

/** Runs the commands of this file; false when `area command` is not one of them. */
export async function runAuditCommand(
  _config: Config,
  db: Db,
  area: string | undefined,
  command: string | undefined,
  rest: string[],
  values: Values,
  print: (value: unknown) => void,
): Promise<boolean> {
  switch (`${area} ${command}`) {
    case 'client set-allowed-ips': {
      if (rest.length !== 2) throw new AppError('bad_request', 'client set-allowed-ips takes 2 arguments: CLIENT_ID and CIDR[,CIDR…] or none')
      print(await setAllowedAddresses(db, rest[0]!, rest[1]!))
      return true
    }
    case 'audit verify': {
      const check = await verifyAuditChain(db)
      if (!check.ok)
        throw new ChainBroken(
          `audit verify: ${check.uid === null ? 'the chain' : `record ${check.uid}`} is bad: ${check.reason} (${check.records} records before it are intact)`,
        )
      print({ status: 'ok', records: check.records })
      return true
    }
    case 'audit list': {
      const input: Record<string, unknown> = {}
      for (const flag of Object.keys(AUDIT_OPTIONS)) {
        const value = values[flag]
        if (typeof value === 'string') input[flag.replace(/-/g, '_')] = value
      }
      const query = parseInput(auditListQuery, input, 'body')
      for (const record of (await listAuditRecords(db, query)).rows) print(record)
      return true
    }
    default:
      return false
  }
}

/**
 * Records a CLI command that is not read-only: its action (`client.rotate_secret`), what it was
 * done to, and its arguments (no command takes a secret), `ok` or `failed`. What it printed is
 * read only for the id it created (never the secret it may print).
 */
export async function recordCommand(
  db: Db,
  argv: { area: string; command: string; rest: string[]; values: Values },
  outcome: { printed: unknown[]; error?: unknown },
): Promise<void> {
  const key = `${argv.area} ${argv.command}`
  if (READ_ONLY_COMMANDS.has(key)) return
  const created = outcome.printed.find((value): value is { client_id: string } => typeof (value as { client_id?: unknown } | null)?.client_id === 'string')
  const flags = Object.fromEntries(Object.entries(argv.values).filter(([, value]) => value !== undefined))
  const details: Record<string, unknown> = { arguments: argv.rest, flags }
  if (outcome.error !== undefined) details.error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error)
  await recordAudit(db, {
    action: `${argv.area}.${argv.command.replace(/-/g, '_')}`,
    actor: { cli: true },
    target: targetOf(argv.area, argv.rest, argv.values, created?.client_id),
    outcome: outcome.error === undefined ? 'ok' : 'failed',
    details,
  })
}

function targetOf(area: string, rest: string[], values: Values, createdClient: string | undefined): { type: string; id: string | null } {
  const first = rest[0] ?? null
  switch (area) {
    case 'client':
      return { type: 'client', id: createdClient ?? first }
    case 'symbol':
      return { type: 'symbol', id: first }
    case 'account':
      return { type: 'tenant', id: typeof values.tenant === 'string' ? values.tenant : null }
    case 'keys':
      return { type: 'signing_keys', id: null }
    default:
      return { type: area, id: first }
  }
}
