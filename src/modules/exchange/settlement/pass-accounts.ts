import { add, decimalFromStore, type DecimalValue, formatDecimal, subtract, ZERO } from '../../../core/decimal.ts'
import type { AccountChange, LedgerEntryWrite } from '../accounts/accounts.repository.ts'

const keyOf = (tenantId: string, currency: string) => `${tenantId} ${currency}`

/**
 * What a matching pass knows and does of its tenants' accounts (docs/accounts.md, "Settlement"):
 * each placing tenant's available amount as last committed, moved as the pass holds, settles and
 * releases, so an order the pass cannot pay for is refused before it trades; and the changes of the
 * current step, which the step's write applies (locking and re-checking every account it names).
 */
export class PassAccounts {
  readonly #available = new Map<string, DecimalValue>()
  #changes: AccountChange[] = []
  #fees = new Map<string, DecimalValue>()

  /** Balances and holds read at the pass's start. */
  constructor(accounts: readonly { tenant_id: string; currency: string; balance: string; hold: string }[]) {
    for (const a of accounts) this.#available.set(keyOf(a.tenant_id, a.currency), subtract(decimalFromStore(a.balance), decimalFromStore(a.hold)))
  }

  available(tenantId: string, currency: string): DecimalValue {
    return this.#available.get(keyOf(tenantId, currency)) ?? ZERO
  }

  #move(tenantId: string, currency: string, delta: DecimalValue): void {
    this.#available.set(keyOf(tenantId, currency), add(this.available(tenantId, currency), delta))
  }

  /** An order takes (`amount` > 0) or gives back (< 0) a hold. */
  hold(tenantId: string, currency: string, amount: DecimalValue): void {
    if (amount.coefficient === 0n) return
    this.#move(tenantId, currency, { coefficient: -amount.coefficient, scale: amount.scale })
    this.#changes.push({ tenant_id: tenantId, currency, hold: formatDecimal(amount) })
  }

  /** A ledger entry: the balance moves by `amount` (signed). */
  entry(tenantId: string, currency: string, amount: DecimalValue, entry: Omit<LedgerEntryWrite, 'amount'>): void {
    if (amount.coefficient === 0n) return
    this.#move(tenantId, currency, amount)
    this.#changes.push({ tenant_id: tenantId, currency, entries: [{ ...entry, amount: formatDecimal(amount) }] })
  }

  /** A fee the exchange center collects. */
  collect(currency: string, amount: DecimalValue): void {
    if (amount.coefficient === 0n) return
    this.#fees.set(currency, add(this.#fees.get(currency) ?? ZERO, amount))
  }

  /** The current step's changes, handed to its write; the next step starts empty. */
  takeStep(): { changes: AccountChange[]; fees: { currency: string; amount: string }[] } {
    const step = { changes: this.#changes, fees: [...this.#fees].map(([currency, amount]) => ({ currency, amount: formatDecimal(amount) })) }
    this.#changes = []
    this.#fees = new Map()
    return step
  }
}
