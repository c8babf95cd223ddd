import { randomUUID } from 'node:crypto'

import { assertTenantAccess, isAdmin, type Principal } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { add, compareDecimals, decimalFromStore, formatDecimalAtLeast } from '../../../core/decimal.ts'
import { conflict, echoed, forbidden, notFound, validationError, type ValidationIssue } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import type { StoredApproval, WithdrawalStatus } from '../../../db/withdrawals.table.ts'
import { adminMutation, recordCallerAction } from '../../audit/admin-operations.ts'
import { type AccountChange, applyAccountChanges, findCurrencyPrecision } from '../accounts/accounts.repository.ts'
import { ACCOUNTS_READ, ACCOUNTS_WRITE, amountIssues, insufficientBalanceIssue } from '../accounts/accounts.ts'
import { tenantStream } from '../event-log/event-log.ts'
import { accountKey, accountQueue } from './account-queue.ts'
import {
  findDestination,
  findThreshold,
  findWithdrawal,
  findWithdrawalByReference,
  insertWithdrawal,
  listWithdrawalRows,
  lockDailyLimit,
  transactionNow,
  updateWithdrawal,
  usedToday,
  type WithdrawalRow,
  writeWithdrawalEvent,
} from './withdrawals.repository.ts'
import { approveBody, rejectBody, type WithdrawalBody, withdrawalBody, withdrawalListQuery } from './withdrawals.schemas.ts'

/** Banks ask for withdrawals with it; no client is given it by default (docs/accounts.md, "Withdrawals"). */
export const ACCOUNTS_WITHDRAW = 'accounts:withdraw'

/**
 * Withdrawals with four eyes (docs/accounts.md, "Withdrawals"): a bank's request holds the amount
 * at once; admins approve (one approval, or two by two different admin clients at or above the
 * currency's threshold) or reject; the bank may cancel while it is pending. Every move takes the
 * withdrawal's row lock first, then the account's (applyAccountChanges), then the tenant's event
 * counter: the one order, so two moves of one withdrawal (on any process) run one after the other
 * and the second sees the first's status.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const UNIQUE_VIOLATION = '23505'

/** A uid as sent: a UUID in any case names one withdrawal; anything else names none (404). */
const withdrawalUid = (uid: string) => (uid.length === 36 && UUID.test(uid) ? uid.toLowerCase() : undefined)

const notFoundError = (uid: string) => notFound(`Withdrawal ${echoed(uid)} not found`)

export interface RequestedWithdrawal {
  withdrawal: WithdrawalRow
  /** False when `reference` named the same withdrawal asked for before: nothing was held again. */
  created: boolean
}

/** `POST /api/exchange/v1/withdrawals`: a bank with `accounts:withdraw` asks to move money out. */
export async function requestWithdrawal(ctx: RequestContext, input: () => unknown): Promise<RequestedWithdrawal> {
  const principal = await ctx.auth.require(ACCOUNTS_WITHDRAW)
  const body = parseInput(withdrawalBody, await input(), 'body')
  const result = await request(ctx.services.db, principal, body)
  if (result.created) {
    ctx.services.events.wake([tenantStream(principal.tenantId)])
    const { uid, currency, amount, reference } = result.withdrawal
    await recordCallerAction(ctx, principal, 'withdrawal.request', { target: { type: 'withdrawal', id: uid }, details: { currency, amount, reference } })
  }
  return result
}

async function request(db: Db, principal: Principal, body: WithdrawalBody): Promise<RequestedWithdrawal> {
  const tenantId = principal.tenantId
  for (let attempt = 0; ; attempt++) {
    try {
      return await accountQueue.run(accountKey(tenantId, body.currency), () => requestOnce(db, principal, body))
    } catch (error) {
      // Two requests with one reference at once: the loser's insert hits the unique key; its retry finds the winner's.
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION && attempt === 0) continue
      throw error
    }
  }
}

function requestOnce(db: Db, principal: Principal, body: WithdrawalBody): Promise<RequestedWithdrawal> {
  const tenantId = principal.tenantId
  return db.transaction().execute(async (trx) => {
    const existing = await findWithdrawalByReference(trx, tenantId, body.reference)
    if (existing) return { withdrawal: replayed(existing, body), created: false }
    const precision = await checkRequest(trx, tenantId, body)
    const now = await transactionNow(trx)
    const amount = decimalFromStore(body.amount)
    const limit = await lockDailyLimit(trx, tenantId, body.currency)
    if (limit !== undefined) {
      const used = decimalFromStore(await usedToday(trx, tenantId, body.currency, now))
      if (compareDecimals(add(used, amount), decimalFromStore(limit)) > 0) {
        const [limitText, usedText] = [limit, used].map((v) => formatDecimalAtLeast(typeof v === 'string' ? decimalFromStore(v) : v, Math.max(precision, 0)))
        throw validationError([
          {
            type: 'value_error.withdrawal_limit',
            loc: ['body', 'amount'],
            msg: `daily withdrawal limit exceeded: ${body.currency} limit ${limitText}, used today ${usedText}`,
            input: body.amount,
            ctx: { limit: limitText, used: usedText },
          },
        ])
      }
    }
    const applied = await applyAccountChanges(trx, [{ tenant_id: tenantId, currency: body.currency, hold: body.amount }])
    if (!applied.ok) {
      throw validationError([
        insufficientBalanceIssue(body.currency, decimalFromStore(applied.refused[0]!.available), amount, precision, 'amount', body.amount),
      ])
    }
    const uid = randomUUID()
    await insertWithdrawal(
      trx,
      { uid, tenant_id: tenantId, ...body, destination_uid: body.destination_uid.toLowerCase(), requested_by: principal.clientId },
      now,
    )
    const row = (await findWithdrawal(trx, uid))!
    await writeWithdrawalEvent(trx, row, now)
    return { withdrawal: row, created: true }
  })
}

/** The withdrawal asked for before with this reference: the same request (200), or a conflict (409). */
function replayed(existing: WithdrawalRow, body: WithdrawalBody): WithdrawalRow {
  const same =
    existing.currency === body.currency &&
    existing.destination_uid === body.destination_uid.toLowerCase() &&
    compareDecimals(decimalFromStore(existing.amount), decimalFromStore(body.amount)) === 0
  if (!same) throw conflict(`Reference ${echoed(body.reference)} was used for a different withdrawal`)
  return existing
}

/** The currency's precision, once the request is known to be well formed (422 naming every problem otherwise). */
async function checkRequest(db: Db, tenantId: string, body: WithdrawalBody): Promise<number> {
  const [precision, destination] = await Promise.all([findCurrencyPrecision(db, body.currency), findDestination(db, body.destination_uid.toLowerCase())])
  const issues: ValidationIssue[] = []
  if (precision === undefined) {
    issues.push({ type: 'value_error.currency', loc: ['body', 'currency'], msg: `unknown currency ${body.currency}`, input: body.currency })
  }
  issues.push(...amountIssues(body.amount, precision))
  // Another tenant's destination reads as an unknown one: a bank learns nothing of others'.
  if (!destination || destination.tenant_id !== tenantId || destination.currency !== body.currency) {
    issues.push({
      type: 'value_error.destination',
      loc: ['body', 'destination_uid'],
      msg: `no destination ${body.destination_uid} of this tenant in ${body.currency}`,
      input: body.destination_uid,
    })
  }
  if (issues.length > 0) throw validationError(issues)
  return precision!
}

/** `GET /api/exchange/v1/withdrawals/<uid>`: a bank's own; admins any. */
export async function getWithdrawal(ctx: RequestContext, sent: string): Promise<WithdrawalRow> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const uid = withdrawalUid(sent)
  const row = uid === undefined ? undefined : await findWithdrawal(ctx.services.db, uid)
  if (!row) throw notFoundError(sent)
  assertTenantAccess(principal, row.tenant_id)
  return row
}

/** `GET /api/exchange/v1/withdrawals`: a bank's own; admins every tenant's, or one's with `tenant_id`. */
export async function listWithdrawals(ctx: RequestContext, input: unknown): Promise<Page<WithdrawalRow>> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const query = parseInput(withdrawalListQuery, input, 'query')
  if (query.tenant_id !== undefined) assertTenantAccess(principal, query.tenant_id)
  const tenantId = query.tenant_id ?? (isAdmin(principal) ? undefined : principal.tenantId)
  const page = await listWithdrawalRows(ctx.services.db, query, tenantId)
  return { ...page, offset: query.offset, limit: query.limit }
}

type Move = 'approve' | 'reject' | 'cancel'

async function assertExists(ctx: RequestContext, sent: string): Promise<void> {
  const uid = withdrawalUid(sent)
  if (uid === undefined || !(await findWithdrawal(ctx.services.db, uid))) throw notFoundError(sent)
}

/**
 * One move of a pending withdrawal, under its row lock: `decide` checks the caller against the
 * locked row and answers the new status, approvals and reason; a final status writes the ledger
 * (completed) or releases the hold (rejected, cancelled) in the same transaction, with the event.
 */
async function move(
  ctx: RequestContext,
  sent: string,
  verb: Move,
  decide: (row: WithdrawalRow, now: string, trx: Db) => Promise<{ status: WithdrawalStatus; approvals: StoredApproval[]; reason: string | null }>,
  authorize: (row: WithdrawalRow) => void = () => {},
): Promise<WithdrawalRow> {
  const uid = withdrawalUid(sent)
  // Its tenant and currency never change: read unlocked, they name the account to queue on.
  const known = uid === undefined ? undefined : await findWithdrawal(ctx.services.db, uid)
  if (!known) throw notFoundError(sent)
  const row = await accountQueue.run(accountKey(known.tenant_id, known.currency), () => decideOnce(ctx, uid!, sent, verb, decide, authorize))
  ctx.services.events.wake([tenantStream(row.tenant_id)])
  return row
}

function decideOnce(
  ctx: RequestContext,
  uid: string,
  sent: string,
  verb: Move,
  decide: Parameters<typeof move>[3],
  authorize: (row: WithdrawalRow) => void,
): Promise<WithdrawalRow> {
  return ctx.services.db.transaction().execute(async (trx) => {
    const locked = await findWithdrawal(trx, uid, true)
    if (!locked) throw notFoundError(sent)
    authorize(locked)
    if (locked.status !== 'pending') throw conflict(`Withdrawal ${uid} is ${locked.status}; only a pending withdrawal can be ${PAST[verb]}`)
    const now = await transactionNow(trx)
    const change = await decide(locked, now, trx)
    if (change.status !== 'pending') {
      const held: AccountChange = { tenant_id: locked.tenant_id, currency: locked.currency, hold: `-${locked.amount}` }
      if (change.status === 'completed') held.entries = [{ kind: 'withdrawal', amount: `-${locked.amount}`, reference: `withdrawal:${uid}` }]
      const applied = await applyAccountChanges(trx, [held])
      // The hold was part of the balance: paying it out or releasing it never leaves less than nothing.
      if (!applied.ok) throw new Error(`withdrawal ${uid}: its account refused releasing its hold`)
    }
    await updateWithdrawal(trx, uid, change, now)
    const changed = (await findWithdrawal(trx, uid))!
    await writeWithdrawalEvent(trx, changed, now)
    return changed
  })
}

const PAST: Record<Move, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' }

/** An admin decision, through the audited gate (docs/operations.md, "Audit trail"). */
function decision(ctx: RequestContext, action: string, run: (principal: Principal) => Promise<WithdrawalRow>): Promise<WithdrawalRow> {
  return adminMutation(ctx, { scope: ACCOUNTS_WRITE, action }, async (principal) => {
    const row = await run(principal)
    return { result: row, target: { type: 'withdrawal', id: row.uid }, details: { status: row.status, tenant_id: row.tenant_id } }
  })
}

/**
 * `POST …/withdrawals/<uid>/approve` (admins): completes it, or records the first of the two
 * approvals needed at or above the currency's approval threshold. The client that asked for it
 * never approves it (403: who may act, not the state); the same admin twice is 409.
 */
export function approveWithdrawal(ctx: RequestContext, sent: string, input: () => unknown): Promise<WithdrawalRow> {
  return decision(ctx, 'withdrawal.approve', async (principal) => {
    const body = parseInput(approveBody, (await input()) ?? {}, 'body')
    return move(
      ctx,
      sent,
      'approve',
      async (row, now, trx) => {
        if (row.approvals.some((a) => a.client_id === principal.clientId)) throw conflict(`Withdrawal ${row.uid} was already approved by this client`)
        const approvals = [...row.approvals, { client_id: principal.clientId, created_at: now, reason: body.reason ?? null }]
        const threshold = await findThreshold(trx, row.currency)
        const needed = threshold !== undefined && compareDecimals(decimalFromStore(row.amount), decimalFromStore(threshold)) >= 0 ? 2 : 1
        return { status: approvals.length >= needed ? 'completed' : 'pending', approvals, reason: null }
      },
      (row) => {
        if (row.requested_by === principal.clientId) throw forbidden('Access denied: the client that requested a withdrawal cannot approve it')
      },
    )
  })
}

/** `POST …/withdrawals/<uid>/reject` (admins): its hold is released; `reason` is kept. */
export function rejectWithdrawal(ctx: RequestContext, sent: string, input: () => unknown): Promise<WithdrawalRow> {
  return decision(ctx, 'withdrawal.reject', async () => {
    // An unknown uid is 404 whatever the body: there is nothing to reject.
    await assertExists(ctx, sent)
    const body = parseInput(rejectBody, await input(), 'body')
    return move(ctx, sent, 'reject', async (row) => ({ status: 'rejected', approvals: row.approvals, reason: body.reason }))
  })
}

/** `DELETE /api/exchange/v1/withdrawals/<uid>`: the bank takes back its own pending request; the hold is released. */
export async function cancelWithdrawal(ctx: RequestContext, sent: string): Promise<WithdrawalRow> {
  const principal = await ctx.auth.require(ACCOUNTS_WITHDRAW)
  const cancelled = await move(
    ctx,
    sent,
    'cancel',
    async (row) => ({ status: 'cancelled', approvals: row.approvals, reason: null }),
    (row) => {
      if (row.tenant_id !== principal.tenantId) throw forbidden('Token belongs to different client')
    },
  )
  await recordCallerAction(ctx, principal, 'withdrawal.cancel', { target: { type: 'withdrawal', id: cancelled.uid }, details: {} })
  return cancelled
}
