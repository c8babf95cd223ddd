import { sql } from 'kysely'

import { Batcher } from '../../../core/batcher.ts'
import { ReloadLoop } from '../../../core/reload-loop.ts'
import { type Db, executePrepared } from '../../../db/database.ts'

const MAX_BATCH_SIZE = 200
// One insert in flight: the calls arriving meanwhile share the next. Each statement is a socket
// write that wakes the database, which cost the service more than the rows (docs/dpop.md, "Cost").
const MAX_CONCURRENT_BATCHES = 1
/** How often proofs past their window are deleted: the table holds about this long's worth plus the window. */
export const PROOF_PURGE_INTERVAL_MS = 60_000

interface SeenProof {
  jkt: string
  jti: string
  /** Unix seconds after which the proof is refused for its `iat` anyway: it need not be remembered longer. */
  until: number
}

/**
 * The proofs seen, across every instance (docs/dpop.md, "Replays"): a (key, jti) is accepted once.
 * One `insert … on conflict do nothing` per batch of concurrent proofs, so N calls cost one round
 * trip and one commit; the primary key decides between instances. Rows are deleted once their
 * window has passed, in the background.
 */
export class ProofReplays {
  readonly #inserts: Batcher<SeenProof, boolean>
  readonly #purge: ReloadLoop

  constructor(db: Db) {
    this.#inserts = new Batcher(
      async (proofs) => {
        // Prepared: PostgreSQL parses and plans it once per connection, not for every DPoP call (docs/dpop.md, "Cost").
        const { rows } = await executePrepared(
          db,
          'first_dpop_proofs',
          sql<{ jkt: string; jti: string }>`
          insert into dpop_proofs (jkt, jti, expires_at)
          select jkt, jti, to_timestamp(until) at time zone 'utc'
            from unnest(${proofs.map((p) => p.jkt)}::text[], ${proofs.map((p) => p.jti)}::text[], ${proofs.map((p) => p.until)}::bigint[]) as i(jkt, jti, until)
          on conflict do nothing
          returning jkt, jti`,
        )
        // A proof listed twice in one batch is inserted once: its first listing wins.
        const fresh = new Set(rows.map((row) => `${row.jkt} ${row.jti}`))
        return proofs.map((p) => fresh.delete(`${p.jkt} ${p.jti}`))
      },
      { maxBatchSize: MAX_BATCH_SIZE, maxConcurrentBatches: MAX_CONCURRENT_BATCHES },
    )
    this.#purge = new ReloadLoop(async () => {
      await sql`delete from dpop_proofs where expires_at < timezone('utc', now())`.execute(db)
    })
  }

  /** True the first time a (key thumbprint, jti) is presented, on any instance; false on a replay. */
  first(jkt: string, jti: string, until: number): Promise<boolean> {
    return this.#inserts.submit({ jkt, jti, until })
  }

  /** Deletes expired proofs now (tests) and returns when done. */
  purge(): Promise<void> {
    return this.#purge.run()
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#purge.start(intervalMs, onError)
  }

  stop(): Promise<void> {
    return this.#purge.stop()
  }
}
