import { createHash, randomUUID } from 'node:crypto'

import { sql } from 'kysely'

import { formatTimestamp } from '../../core/timestamps.ts'
import { type Db, executePrepared, separatedTexts } from '../../db/database.ts'

/**
 * The audit trail's records and their hash chain (docs/operations.md, "Audit trail"). Each
 * record's `hash` is SHA-256 over the canonical JSON of the record and the previous record's hash;
 * appends lock the chain's one head row, so records from several processes form one chain.
 */

export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number]

/** Who acted: a client (by its token or its credentials) or an operator at the CLI. */
export type AuditActor = { client_id: string | null; tenant_id: string | null } | { cli: true }

/** What a caller gives to record one action; the trail adds `uid`, `created_at` and the hashes. */
export interface AuditEntry {
  action: string
  actor: AuditActor
  target?: { type: string; id: string | null } | null
  ip?: string | null
  request_id?: string | null
  outcome: AuditOutcome
  /** Never a secret, token or hash of either (test/audit.test.ts searches every record for them). */
  details?: Record<string, unknown>
}

/** A stored record as the chain hashes it and the API answers it. */
export interface AuditRecord {
  uid: string
  created_at: string
  action: string
  actor: AuditActor
  target: { type: string; id: string | null } | null
  ip: string | null
  request_id: string | null
  outcome: AuditOutcome
  details: Record<string, unknown>
  hash: string
}

export const GENESIS_HASH = '0'.repeat(64)
// Bounds what one record may carry, whatever a caller passes (a flood cannot make records large).
const MAX_TEXT = 200
const MAX_DETAILS_BYTES = 4096

/** JSON with object keys sorted at every level: the same record always serialises to the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** The hash of `record` following `prevHash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'>, prevHash: string): string {
  return createHash('sha256').update(hashedText(record, prevHash)).digest('hex')
}

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value))
const isText = (value: unknown): value is string | null => value === null || typeof value === 'string'

/** `canonicalJson` of an object that should hold exactly the keys `a` < `b`, each a string or null. */
function pairText(value: object, a: string, b: string): string {
  const pair = value as Record<string, unknown>
  const [x, y] = [pair[a], pair[b]]
  // Anything else (a record edited behind the service's back) is written the generic way, so it hashes as it reads.
  if (Object.keys(pair).length !== 2 || !isText(x) || !isText(y)) return canonicalJson(value)
  return `{${JSON.stringify(a)}:${text(x)},${JSON.stringify(b)}:${text(y)}}`
}

/**
 * `canonicalJson` of the record and `prevHash`, written field by field in the sorted order of
 * the record's own keys: every login appends one, and the generic sort cost more than the hash
 * (src/modules/audit/audit-chain.test.ts holds the two to the same text).
 */
export function hashedText(record: Omit<AuditRecord, 'hash'>, prevHash: string): string {
  const { actor, target, details } = record
  const actorText = 'cli' in actor ? canonicalJson(actor) : pairText(actor, 'client_id', 'tenant_id')
  const targetText = target === null ? 'null' : pairText(target, 'id', 'type')
  const detailsText = Object.keys(details).length === 0 ? '{}' : canonicalJson(details)
  return (
    `{"action":${canonicalJson(record.action)},"actor":${actorText},"created_at":${canonicalJson(record.created_at)},"details":${detailsText},` +
    `"ip":${canonicalJson(record.ip)},"outcome":${canonicalJson(record.outcome)},"prev_hash":${text(prevHash)},"request_id":${canonicalJson(record.request_id)},` +
    `"target":${targetText},"uid":${canonicalJson(record.uid)}}`
  )
}

const bounded = (text: string | null | undefined) => (text == null ? null : text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text)

function boundedDetails(details: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!details || Object.keys(details).length === 0) return {}
  const text = JSON.stringify(details)
  return text.length <= MAX_DETAILS_BYTES ? (JSON.parse(text) as Record<string, unknown>) : { truncated: true }
}

/** `2026-11-28T20:40:00.123Z` → `2026-11-28 20:40:00.123`, the stored text. */
const storedTimestamp = (at: Date) => at.toISOString().slice(0, 23).replace('T', ' ')

/** An entry as a record about to be stored (hash aside), bounded. */
export function toRecord(entry: AuditEntry, at: Date): Omit<AuditRecord, 'hash'> & { stored_at: string } {
  const stored = storedTimestamp(at)
  return {
    uid: randomUUID(),
    created_at: formatTimestamp(stored),
    stored_at: stored,
    action: bounded(entry.action)!,
    actor: 'cli' in entry.actor ? { cli: true } : { client_id: bounded(entry.actor.client_id), tenant_id: bounded(entry.actor.tenant_id) },
    target: entry.target ? { type: bounded(entry.target.type)!, id: bounded(entry.target.id) } : null,
    ip: bounded(entry.ip),
    request_id: bounded(entry.request_id),
    outcome: entry.outcome,
    details: boundedDetails(entry.details),
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The chain's head: the place and hash of its last record. */
export interface ChainHead {
  seq: bigint
  hash: string
}

/** A stored row of `audit_records`, as appends write it. */
interface RecordRow {
  seq: string
  uid: string
  created_at: string
  action: string
  actor: string
  actor_client_id: string | null
  target_type: string | null
  target_id: string | null
  ip: string | null
  request_id: string | null
  outcome: AuditOutcome
  details: string
  prev_hash: string
  hash: string
}

/** `records` chained after `head`: their rows, the records as answered, and the new head. */
function chain(records: readonly (Omit<AuditRecord, 'hash'> & { stored_at: string })[], head: ChainHead) {
  let seq = head.seq
  let prev = head.hash
  const rows: RecordRow[] = []
  const stored: AuditRecord[] = []
  for (const { stored_at, ...record } of records) {
    seq += 1n
    const hash = recordHash(record, prev)
    const clientId = 'client_id' in record.actor ? record.actor.client_id : null
    rows.push({
      seq: seq.toString(),
      uid: record.uid,
      created_at: stored_at,
      action: record.action,
      actor: JSON.stringify(record.actor),
      actor_client_id: clientId && UUID.test(clientId) ? clientId : null,
      target_type: record.target?.type ?? null,
      target_id: record.target?.id ?? null,
      ip: record.ip,
      request_id: record.request_id,
      outcome: record.outcome,
      details: JSON.stringify(record.details),
      prev_hash: prev,
      hash,
    })
    stored.push({ ...record, hash })
    prev = hash
  }
  return { rows, stored, head: { seq, hash: prev } }
}

/**
 * Appends `entries` to the chain in one transaction, in order: the head row is locked first, so a
 * concurrent append (another process, the CLI) waits and then chains onto these.
 */
export async function appendAuditRecords(db: Db, entries: readonly AuditEntry[], at = new Date()): Promise<AuditRecord[]> {
  return (
    await appendLocked(
      db,
      entries.map((entry) => toRecord(entry, at)),
    )
  ).stored
}

async function appendLocked(db: Db, records: readonly (Omit<AuditRecord, 'hash'> & { stored_at: string })[]) {
  if (records.length === 0) return { stored: [], head: undefined }
  return db.transaction().execute(async (trx) => {
    const row = (await sql<{ seq: string; hash: string }>`select seq::text as seq, hash from audit_chain where id for update`.execute(trx)).rows[0]!
    const { rows, stored, head } = chain(records, { seq: BigInt(row.seq), hash: row.hash })
    await trx
      .insertInto('audit_records')
      .values(rows as never)
      .execute()
    await sql`update audit_chain set seq = ${head.seq.toString()}::int8, hash = ${head.hash} where id`.execute(trx)
    return { stored, head }
  })
}

// Tries of the one-statement append before an append takes the head's lock.
const OPTIMISTIC_TRIES = 3

/**
 * Appends `entries` after `head`, the head as this process last left it, in one statement: the
 * head row moves only if it still is `head`, and the records are inserted only if it moved. When
 * another writer moved it since (another instance, the CLI), the statement writes nothing and
 * answers the head it saw; the records are chained after that one and tried again, and after a
 * few misses appended under the head's lock. A login's record costs one statement of its batch,
 * not a transaction of four. Unless `durable`, the statement commits without waiting for the
 * write-ahead log's flush, which cost the database more than the records themselves
 * (docs/operations.md, "Audit trail").
 */
export async function appendAuditRecordsAfter(
  db: Db,
  entries: readonly AuditEntry[],
  head: ChainHead | undefined,
  { durable, at = new Date() }: { durable: boolean; at?: Date },
): Promise<{ stored: AuditRecord[]; head: ChainHead | undefined }> {
  if (entries.length === 0) return { stored: [], head }
  const records = entries.map((entry) => toRecord(entry, at))
  for (let tries = 0; head !== undefined && tries < OPTIMISTIC_TRIES; tries++) {
    const chained = chain(records, head)
    const { rows } = chained
    const answer = (
      await executePrepared(
        db,
        'append_audit_records',
        sql<{ moved: number; seq: string; hash: string }>`
        with seen as (select seq, hash from audit_chain where id),
        moved as (
          update audit_chain set seq = ${chained.head.seq.toString()}::int8, hash = ${chained.head.hash}
          where id and seq = ${head.seq.toString()}::int8 and hash = ${head.hash}
          returning seq
        ), appended as (
          insert into audit_records (seq, uid, created_at, action, actor, actor_client_id, target_type, target_id, ip, request_id,
            outcome, details, prev_hash, hash)
          select * from unnest(${column(rows, 'seq')}::int8[], ${column(rows, 'uid')}::uuid[],
            ${column(rows, 'created_at')}::timestamp(6)[], ${column(rows, 'action')}::text[], ${separatedTexts(column(rows, 'actor'))}::jsonb[],
            ${column(rows, 'actor_client_id')}::uuid[], ${column(rows, 'target_type')}::text[], ${column(rows, 'target_id')}::text[],
            ${column(rows, 'ip')}::text[], ${column(rows, 'request_id')}::text[], ${column(rows, 'outcome')}::text[],
            ${separatedTexts(column(rows, 'details'))}::jsonb[], ${column(rows, 'prev_hash')}::text[], ${column(rows, 'hash')}::text[])
          where exists (select from moved)
        )
        select (select count(*) from moved)::int as moved, seen.seq::text as seq, seen.hash,
          set_config('synchronous_commit', case when ${durable} then current_setting('synchronous_commit') else 'off' end, true)
        from seen`,
      )
    ).rows[0]!
    if (answer.moved === 1) return { stored: chained.stored, head: chained.head }
    const seen = { seq: BigInt(answer.seq), hash: answer.hash }
    // The statement's snapshot predates the writer it waited for: only the lock tells the head now.
    if (seen.seq === head.seq && seen.hash === head.hash) break
    head = seen
  }
  return appendLocked(db, records)
}

const column = <K extends keyof RecordRow>(rows: readonly RecordRow[], key: K) => rows.map((row) => row[key])

/** Appends one record (the CLI, and anything that must be recorded before it answers). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<AuditRecord> {
  return (await appendAuditRecords(db, [entry]))[0]!
}

/** What `verifyAuditChain` found: every record intact, or the first one that is not. */
export type ChainCheck = { ok: true; records: number } | { ok: false; records: number; uid: string | null; reason: string }

const VERIFY_PAGE = 1000

/**
 * Recomputes the chain from its first record: the first record whose hash, previous hash or place
 * does not follow is named (an edited record, one inserted or removed before it). The head row
 * must name the last record, so removing records at the end is found too.
 */
export async function verifyAuditChain(db: Db): Promise<ChainCheck> {
  let prev = GENESIS_HASH
  let expectedSeq = 1n
  let count = 0
  for (;;) {
    const { rows } = await sql<StoredRow>`
      select seq::text as seq, uid, created_at::text as created_at, action, actor, target_type, target_id, ip, request_id, outcome, details, prev_hash, hash
      from audit_records where audit_records.seq >= ${expectedSeq.toString()}::int8 order by audit_records.seq limit ${VERIFY_PAGE}`.execute(db)
    for (const row of rows) {
      const record = fromStored(row)
      if (BigInt(row.seq) !== expectedSeq) return { ok: false, records: count, uid: row.uid, reason: `a record is missing before it (seq ${expectedSeq})` }
      if (row.prev_hash !== prev) return { ok: false, records: count, uid: row.uid, reason: 'its previous hash does not match the record before it' }
      if (recordHash(record, prev) !== row.hash) return { ok: false, records: count, uid: row.uid, reason: 'its hash does not match its content' }
      prev = row.hash
      expectedSeq += 1n
      count++
    }
    if (rows.length < VERIFY_PAGE) break
  }
  const head = await sql<{ seq: string; hash: string }>`select seq::text as seq, hash from audit_chain where id`.execute(db)
  const { seq, hash } = head.rows[0]!
  if (BigInt(seq) !== expectedSeq - 1n || hash !== prev) {
    return {
      ok: false,
      records: count,
      uid: null,
      reason: `the chain's head names record ${seq}, but the last record is ${expectedSeq - 1n}: records were removed`,
    }
  }
  return { ok: true, records: count }
}

/** A record as read back from the table. */
export interface StoredRow {
  seq: string
  uid: string
  created_at: string
  action: string
  actor: AuditActor
  target_type: string | null
  target_id: string | null
  ip: string | null
  request_id: string | null
  outcome: AuditOutcome
  details: Record<string, unknown>
  prev_hash: string
  hash: string
}

export function fromStored(row: StoredRow): AuditRecord {
  return {
    uid: row.uid,
    created_at: formatTimestamp(row.created_at),
    action: row.action,
    actor: row.actor,
    target: row.target_type === null ? null : { type: row.target_type, id: row.target_id },
    ip: row.ip,
    request_id: row.request_id,
    outcome: row.outcome,
    details: row.details,
    hash: row.hash,
  }
}
