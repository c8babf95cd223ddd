import { sql } from 'kysely'
import { z } from 'zod'

import { echoed, notFound } from '../../../core/errors.ts'
import { parseInput } from '../../../core/validation.ts'
import type { Db } from '../../../db/database.ts'
import { updateClient } from '../clients/clients.repository.ts'
import { toClientRecord } from '../clients/clients.ts'
import { revokeClientSessions } from '../sessions/sessions.repository.ts'

export const setDpopInput = z.object({ client_id: z.string().max(256, { abort: true }), dpop: z.enum(['required', 'off']) })

/**
 * Requires DPoP of a client, or stops requiring it (docs/dpop.md). Turning it on revokes the
 * client's sessions in the same transaction: their tokens are not bound to a key, and every
 * process refuses them (and ends their streams) within the revocation reload, as after
 * `rotate-secret`; the client logs in again with a proof. Turning it off leaves bound sessions
 * bound: they keep needing proofs until they end.
 */
export async function setClientDpop(db: Db, input: { client_id: string; dpop: string }) {
  const { client_id, dpop } = parseInput(setDpopInput, input, 'body')
  if (!z.uuid().safeParse(client_id).success) throw notFound(`Client ${echoed(client_id)} does not exist`)
  return db.transaction().execute(async (trx) => {
    // Locked first, so the change and the revocation see the same "before".
    const before = await sql<{ dpop_required: boolean }>`select dpop_required from clients where id = ${client_id} for update`.execute(trx)
    if (!before.rows[0]) throw notFound(`Client ${client_id} does not exist`)
    const row = await updateClient(trx, client_id, { dpop_required: dpop === 'required' })
    if (!row) throw notFound(`Client ${client_id} does not exist`)
    const turnedOn = dpop === 'required' && !before.rows[0].dpop_required
    const revoked = turnedOn ? await revokeClientSessions(trx, row.id, 'dpop_required') : []
    return { ...toClientRecord(row), revoked_sessions: revoked.length }
  })
}
