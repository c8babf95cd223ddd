import { sql } from 'kysely'

import { builder } from '../../../graphql/builder.ts'
import { ANSWERS_ANONYMOUS } from '../../../graphql/root-fields.ts'

const Health = builder.objectRef<{ status: string; database: string }>('Health').implement({
  description: 'Liveness of the service and its database.',
  fields: (t) => ({
    status: t.exposeString('status'),
    database: t.exposeString('database'),
  }),
})

builder.queryField('health', (t) =>
  t.field({
    type: Health,
    extensions: ANSWERS_ANONYMOUS,
    resolve: async (_root, _args, ctx) => {
      try {
        await sql`select 1`.execute(ctx.services.db)
        return { status: 'ok', database: 'ok' }
      } catch {
        return { status: 'degraded', database: 'unreachable' }
      }
    },
  }),
)
