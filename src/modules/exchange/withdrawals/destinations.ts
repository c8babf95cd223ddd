import { randomUUID } from 'node:crypto'

import { isValidIBAN } from 'ibantools'

import { assertTenantAccess, isAdmin } from '../../../core/auth.ts'
import type { RequestContext } from '../../../core/context.ts'
import { validationError, type ValidationIssue } from '../../../core/errors.ts'
import type { Page } from '../../../core/lists.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { adminMutation } from '../../audit/admin-operations.ts'
import { findTenant } from '../../auth/clients/tenants.repository.ts'
import { findCurrencyPrecision } from '../accounts/accounts.repository.ts'
import { ACCOUNTS_READ, ACCOUNTS_WRITE } from '../accounts/accounts.ts'
import { type DestinationRow, insertDestination, listDestinationRows } from './withdrawals.repository.ts'
import { destinationBody, destinationListQuery } from './withdrawals.schemas.ts'

/**
 * Where a tenant's money may go (docs/accounts.md, "Withdrawals"): the exchange center registers
 * each account; a bank's withdrawal names one of its own, in the withdrawal's currency.
 */

/**
 * The IBAN in electronic form (upper case, no spaces) when it is one: ISO 13616, its country's
 * length and layout and the mod-97 check digits (an Iranian Sheba is `IR` and 24 digits, checked
 * the same way); undefined otherwise. The text is bounded by the schema before it gets here.
 */
export function electronicIban(text: string): string | undefined {
  const compact = text.replace(/ /g, '').toUpperCase()
  return isValidIBAN(compact) ? compact : undefined
}

/** `POST /api/exchange/v1/destinations`: admins with `accounts:write`. */
export async function createDestination(ctx: RequestContext, input: () => unknown): Promise<DestinationRow> {
  return adminMutation(ctx, { scope: ACCOUNTS_WRITE, action: 'withdrawal.destination_create' }, async () => {
    const row = await addDestination(ctx.services.db, await input())
    return { result: row, target: { type: 'destination', id: row.uid }, details: { tenant_id: row.tenant_id, currency: row.currency } }
  })
}

/** A destination, once its tenant, currency and IBAN are known good (422 naming every problem otherwise). */
export async function addDestination(db: Db, input: unknown): Promise<DestinationRow> {
  const body = parseInput(destinationBody, input, 'body')
  const [tenant, precision] = await Promise.all([findTenant(db, body.tenant_id), findCurrencyPrecision(db, body.currency)])
  const issues: ValidationIssue[] = []
  if (!tenant) issues.push({ type: 'value_error.tenant', loc: ['body', 'tenant_id'], msg: `unknown tenant ${body.tenant_id}`, input: body.tenant_id })
  if (precision === undefined) {
    issues.push({ type: 'value_error.currency', loc: ['body', 'currency'], msg: `unknown currency ${body.currency}`, input: body.currency })
  }
  const iban = electronicIban(body.iban)
  if (iban === undefined) {
    issues.push({
      type: 'value_error.iban',
      loc: ['body', 'iban'],
      msg: 'value is not a valid IBAN (ISO 13616, mod-97) nor an Iranian Sheba (IR and 24 digits)',
      input: body.iban,
    })
  }
  if (issues.length > 0) throw validationError(issues)
  return insertDestination(db, { uid: randomUUID(), tenant_id: body.tenant_id, currency: body.currency, label: body.label, iban: iban! })
}

/** `GET /api/exchange/v1/destinations`: a bank's own; admins every tenant's, or one's with `tenant_id`. */
export async function listDestinations(ctx: RequestContext, input: unknown): Promise<Page<DestinationRow>> {
  const principal = await ctx.auth.require(ACCOUNTS_READ)
  const query = parseInput(destinationListQuery, input, 'query')
  if (query.tenant_id !== undefined) assertTenantAccess(principal, query.tenant_id)
  const tenantId = query.tenant_id ?? (isAdmin(principal) ? undefined : principal.tenantId)
  const page = await listDestinationRows(ctx.services.db, query, tenantId)
  return { ...page, offset: query.offset, limit: query.limit }
}
