import { decimalFromStore, formatDecimalAtLeast, hasAtMostPlaces, parseDecimal } from '../../../core/decimal.ts'
import { validationError, type ValidationIssue } from '../../../core/errors.ts'
import type { Db } from '../../../db/database.ts'
import { findTenant } from '../../auth/clients/tenants.repository.ts'
import { findCurrencyPrecision } from '../accounts/accounts.repository.ts'
import { MAX_CURRENCY_LENGTH } from '../accounts/accounts.schemas.ts'
import { upsertDailyLimit, upsertThreshold } from './withdrawals.repository.ts'

/**
 * The operator's settings of withdrawals (docs/accounts.md, "Withdrawals"): a tenant's daily limit
 * per currency, and the amount from which a currency's withdrawals need two approvals. `none`
 * removes one (no limit; one approval always).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NONE = 'none'

/** An amount of `field`, checked against the currency's precision; null for `none`. */
function amountOf(text: string, field: string, precision: number | undefined, positive: boolean, issues: ValidationIssue[]): string | null {
  if (text === NONE) return null
  const value = text.length <= 64 && /^\d+(\.\d+)?$/.test(text) ? parseDecimal(text) : undefined
  if (!value) {
    issues.push({ type: 'value_error.decimal', loc: ['body', field], msg: `must be a decimal amount (0 or more), or ${NONE}`, input: text })
  } else if (positive && value.coefficient === 0n) {
    issues.push({ type: 'value_error.number.not_gt', loc: ['body', field], msg: 'ensure this value is greater than 0', input: text, ctx: { limit_value: '0' } })
  } else if (precision !== undefined && !hasAtMostPlaces(value, precision)) {
    issues.push({
      type: 'value_error.decimal.max_places',
      loc: ['body', field],
      msg: `ensure that there are no more than ${precision} decimal places`,
      input: text,
      ctx: { decimal_places: precision },
    })
  }
  return text
}

async function currencyOf(db: Db, text: string, issues: ValidationIssue[]): Promise<{ code: string; precision: number | undefined }> {
  const code = text.toUpperCase()
  const precision = code.length <= MAX_CURRENCY_LENGTH ? await findCurrencyPrecision(db, code) : undefined
  if (precision === undefined)
    issues.push({ type: 'value_error.currency', loc: ['body', 'currency'], msg: `unknown currency ${code.slice(0, 64)}`, input: text })
  return { code, precision }
}

const rendered = (value: string | null, precision: number | undefined) =>
  value === null ? null : formatDecimalAtLeast(decimalFromStore(value), Math.max(precision ?? 0, 0))

/** `account set-limit --tenant UUID --currency CODE --daily AMOUNT|none`. */
export async function setDailyLimit(db: Db, tenantText: string, currencyText: string, dailyText: string) {
  const issues: ValidationIssue[] = []
  const tenant = UUID.test(tenantText) ? await findTenant(db, tenantText.toLowerCase()) : undefined
  if (!tenant) issues.push({ type: 'value_error.tenant', loc: ['body', 'tenant_id'], msg: `unknown tenant ${tenantText.slice(0, 64)}`, input: tenantText })
  const { code, precision } = await currencyOf(db, currencyText, issues)
  const daily = amountOf(dailyText, 'daily', precision, false, issues)
  if (issues.length > 0) throw validationError(issues)
  await upsertDailyLimit(db, tenant!.id, code, daily)
  return { tenant_id: tenant!.id, currency: code, daily: rendered(daily, precision) }
}

/** `account set-threshold --currency CODE AMOUNT|none`. */
export async function setApprovalThreshold(db: Db, currencyText: string, amountText: string) {
  const issues: ValidationIssue[] = []
  const { code, precision } = await currencyOf(db, currencyText, issues)
  const threshold = amountOf(amountText, 'approval_threshold', precision, true, issues)
  if (issues.length > 0) throw validationError(issues)
  await upsertThreshold(db, code, threshold)
  return { currency: code, approval_threshold: rendered(threshold, precision) }
}
