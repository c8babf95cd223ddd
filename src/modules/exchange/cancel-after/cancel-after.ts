import type { Logger } from 'pino'

import type { RequestContext } from '../../../core/context.ts'
import { ReloadLoop } from '../../../core/reload-loop.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { timestampOf } from '../market-data/market-time.ts'
import type { Matching } from '../matching/matching.ts'
import { type OrderRow, symbolsWithRestingOrdersOf } from '../orders/orders.repository.ts'
import { ORDERS_WRITE } from '../orders/orders.ts'
import { armDeadline, claimDueDeadlines, clearFiredDeadline, disarmDeadline, releaseClaim } from './cancel-after.repository.ts'
import { cancelAfterBody } from './cancel-after.schemas.ts'

/** How often each instance looks for deadlines that passed: well inside the 1 s docs/api.md promises ("Cancel on disconnect"). */
export const CANCEL_DEADLINE_SWEEP_MS = 250
// Tenants whose deadline fired handled by one sweep; the next sweep takes the rest.
const SWEEP_BATCH = 100
// How long a sweep holds a fired deadline it claimed: far longer than cancelling takes, short enough
// that a claimer that died delays its tenant's cancels by little more.
const CLAIM_MS = 10_000

/**
 * Cancel on disconnect (docs/api.md, "Cancel on disconnect"): `timeout_seconds` from now, by the
 * instance's clock, every open order and pending stop of the caller's tenant is cancelled unless
 * the call is made again first; 0 disarms. The deadline is stored, so whichever instance is up when it passes
 * cancels the orders (CancelDeadlines).
 */
export async function cancelAfter(ctx: RequestContext, readBody: () => unknown): Promise<{ deadline: string | null }> {
  const principal = await ctx.auth.require(ORDERS_WRITE)
  const { timeout_seconds } = parseInput(cancelAfterBody, await readBody(), 'body')
  const { db, cancelDeadlines } = ctx.services
  if (timeout_seconds === 0) {
    await disarmDeadline(db, principal.tenantId)
    return { deadline: null }
  }
  const deadline = timestampOf(cancelDeadlines.now() + timeout_seconds * 1000)
  return { deadline: formatTimestamp(await armDeadline(db, principal.tenantId, principal.clientId, deadline)) }
}

/**
 * The sweep every instance runs: each deadline at or before `now()` cancels its tenant's open
 * orders and pending stops (`cancel_reason: "deadline"`, holds released), each symbol's in its
 * matching pass (`cancelMany` takes both), then is removed unless it was moved meanwhile. A sweep
 * claims a deadline before cancelling for it (`claimDueDeadlines`): a second instance sweeping at
 * the same moment skips it, rather than cancelling late, after the first had cleared it, orders
 * placed since. A claim lapses after CLAIM_MS, so a claimer that died is taken over. `now` is the clock (tests set it, as MarketDay's).
 */
export class CancelDeadlines {
  readonly #loop = new ReloadLoop(async () => {
    await this.sweep()
  })

  constructor(
    private readonly db: Db,
    private readonly matching: Pick<Matching, 'cancelMany'>,
    private readonly logger: Pick<Logger, 'info'>,
    public now: () => number = Date.now,
  ) {}

  /** Cancels the open orders and pending stops of every tenant whose deadline passed; answers how many orders. */
  async sweep(): Promise<number> {
    const now = this.now()
    const due = await claimDueDeadlines(this.db, timestampOf(now), timestampOf(now + CLAIM_MS), SWEEP_BATCH)
    let total = 0
    for (const { tenant_id, deadline } of due) {
      let cancelled: OrderRow[][]
      try {
        const symbols = await symbolsWithRestingOrdersOf(this.db, tenant_id, undefined, null)
        cancelled = await Promise.all(symbols.map((symbol) => this.matching.cancelMany(symbol, tenant_id, null, 'deadline')))
      } catch (error) {
        // The next sweep (of any instance) tries again at once, not after the claim lapses.
        await releaseClaim(this.db, tenant_id, deadline).catch(() => {})
        throw error
      }
      await clearFiredDeadline(this.db, tenant_id, deadline)
      const count = cancelled.reduce((sum, orders) => sum + orders.length, 0)
      this.logger.info({ tenant_id, deadline: formatTimestamp(deadline), cancelled: count }, 'cancel-after deadline passed')
      total += count
    }
    return total
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#loop.start(intervalMs, onError)
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }
}
