import { BlockList, isIP, SocketAddress } from 'node:net'

import { sql } from 'kysely'
import { z } from 'zod'

import { echoed, forbidden, notFound, validationError } from '../../../core/errors.ts'
import type { Db } from '../../../db/database.ts'
import type { AuditTrail } from '../../audit/audit-trail.ts'

/**
 * Address allow-lists of clients (docs/operations.md, "Address allow-lists"): a client with a list
 * logs in, refreshes and calls only from an address in one of its ranges. The lists are held in
 * memory beside the revoked sessions and reloaded with them (RevocationCache), so a call reads no
 * row and a change reaches every process within the revocation reload.
 */

export const ADDRESS_NOT_ALLOWED = 'Address not allowed'
/** Ranges one client may list; an input longer than what they take is refused before it is split. */
export const MAX_RANGES = 100
const MAX_INPUT_LENGTH = MAX_RANGES * 44

/** A parsed range: its text as stored, and what checks an address against it. */
interface Range {
  text: string
  family: 'ipv4' | 'ipv6'
  address: string
  prefix: number
}

/** `10.0.0.0/8` or `2001:db8::/32` (a bare address is its own /32 or /128); undefined when it is neither. */
export function parseRange(text: string): Range | undefined {
  const [address = '', prefixText, ...extra] = text.trim().split('/')
  if (extra.length > 0 || address.length > 39) return undefined
  const version = isIP(address)
  if (version === 0) return undefined
  const family = version === 4 ? 'ipv4' : 'ipv6'
  const max = version === 4 ? 32 : 128
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined
  const prefix = prefixText === undefined ? max : Number(prefixText)
  if (prefix > max) return undefined
  // SocketAddress normalises the text (`2001:DB8::0001` → `2001:db8::1`).
  const normal = new SocketAddress({ address, family }).address
  return { text: `${normal}/${prefix}`, family, address: normal, prefix }
}

/**
 * `CIDR[,CIDR…]` → the ranges, or `none` → an empty list (calls from anywhere). Every bad range
 * is named in a 422 at `["body", "cidrs"]`.
 */
export function parseRangeList(input: string): Range[] {
  const issues = (msg: string) => validationError([{ type: 'value_error.cidr', loc: ['body', 'cidrs'], msg, input: echoed(input) }])
  if (input.length > MAX_INPUT_LENGTH) throw issues(`at most ${MAX_RANGES} ranges`)
  if (input.trim() === 'none') return []
  const parts = input.split(',').map((part) => part.trim())
  if (parts.length > MAX_RANGES) throw issues(`at most ${MAX_RANGES} ranges`)
  const ranges: Range[] = []
  const bad: string[] = []
  for (const part of parts) {
    const range = parseRange(part)
    if (range) ranges.push(range)
    else bad.push(JSON.stringify(echoed(part, 45)))
  }
  if (bad.length > 0) throw issues(`not an IPv4 or IPv6 address or CIDR range: ${bad.slice(0, 5).join(', ')} (use none to allow every address)`)
  return ranges
}

function blockListOf(ranges: readonly Range[]): BlockList {
  const list = new BlockList()
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family)
  return list
}

/** Every client's list, in memory: what each call is checked against. */
export class AddressLists {
  #lists = new Map<string, BlockList>()

  constructor(private readonly db: Db) {}

  /** Whether `ip` (normalised, see src/http/client-ip.ts) may act as `clientId`. */
  allows(clientId: string, ip: string): boolean {
    const list = this.#lists.get(clientId)
    if (!list) return true
    const version = isIP(ip)
    return version !== 0 && list.check(ip, version === 4 ? 'ipv4' : 'ipv6')
  }

  /** Reads every list (a handful of rows: only clients with a list have one). */
  async load(): Promise<void> {
    const rows = await this.db.selectFrom('client_allowed_addresses').select(['client_id', 'cidrs']).execute()
    const lists = new Map<string, BlockList>()
    for (const row of rows) lists.set(row.client_id, blockListOf(row.cidrs.flatMap((text) => parseRange(text) ?? [])))
    this.#lists = lists
  }

  /** A list changed by this process applies here at once. */
  set(clientId: string, ranges: readonly Range[]): void {
    if (ranges.length === 0) this.#lists.delete(clientId)
    else this.#lists.set(clientId, blockListOf(ranges))
  }
}

/** What refuses a caller outside its client's list. */
export interface AddressCheck {
  addresses: Pick<AddressLists, 'allows'>
  audit: Pick<AuditTrail, 'fold'>
}

/**
 * Throws the 403 `Address not allowed` when `ip` is outside `clientId`'s list, and counts the
 * refusal in the audit trail, folded per (client, address, minute) like failed logins.
 */
export function assertAddressAllowed(services: AddressCheck, who: { clientId: string; tenantId: string | null }, ip: string, via: string): void {
  if (services.addresses.allows(who.clientId, ip)) return
  services.audit.fold(`address_denied|${via}|${who.clientId}|${ip}`, {
    action: 'auth.address_denied',
    actor: { client_id: who.clientId, tenant_id: who.tenantId },
    target: { type: 'client', id: who.clientId },
    ip,
    outcome: 'denied',
    details: { via },
  })
  throw forbidden(ADDRESS_NOT_ALLOWED)
}

/** `client set-allowed-ips`: replaces a client's list (`none` clears it); answers what is stored. */
export async function setAllowedAddresses(db: Db, clientId: string, input: string): Promise<{ client_id: string; allowed_ips: string[] }> {
  if (!z.uuid().safeParse(clientId).success) throw notFound(`Client ${echoed(clientId)} does not exist`)
  const ranges = parseRangeList(input)
  const cidrs = [...new Set(ranges.map((range) => range.text))]
  return db.transaction().execute(async (trx) => {
    const client = await trx.selectFrom('clients').select('id').where('id', '=', clientId).forUpdate().executeTakeFirst()
    if (!client) throw notFound(`Client ${clientId} does not exist`)
    if (cidrs.length === 0) await trx.deleteFrom('client_allowed_addresses').where('client_id', '=', clientId).execute()
    else {
      await trx
        .insertInto('client_allowed_addresses')
        .values({ client_id: clientId, cidrs })
        .onConflict((oc) => oc.column('client_id').doUpdateSet({ cidrs, updated_at: sql<string>`timezone('utc', now())` }))
        .execute()
    }
    return { client_id: clientId, allowed_ips: cidrs }
  })
}

/** A client's list as stored (empty: calls from anywhere). */
export async function allowedAddressesOf(db: Db, clientId: string): Promise<string[]> {
  const row = await db.selectFrom('client_allowed_addresses').select('cidrs').where('client_id', '=', clientId).executeTakeFirst()
  return row?.cidrs ?? []
}
