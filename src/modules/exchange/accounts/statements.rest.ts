import { z } from 'zod'

import { StreamedBody } from '../../../http/responses.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { accountParams } from './accounts.schemas.ts'
import { ACCOUNTS_READ } from './accounts.ts'
import { STATEMENT_CONTENT_TYPES, statementChunks } from './statement-formats.ts'
import { statementCsvText, type StatementFormat, statementQuery, statementSchema, statementXmlText } from './statements.schemas.ts'
import { accountStatement } from './statements.ts'

const MEDIA_TYPES: Record<string, StatementFormat> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/xml': 'camt053',
  'text/xml': 'camt053',
}

/**
 * The form `Accept` prefers (highest `q`, then the first listed) among JSON, CSV and XML; anything
 * else, or nothing, is JSON, as the event lists answer an `Accept` they do not serve.
 * `Accept` is bounded by Node's header limit; one split and a short parse per range.
 */
export function statementFormat(accept: string | undefined): StatementFormat {
  let best: { format: StatementFormat; q: number } | undefined
  for (const range of (accept ?? '').toLowerCase().split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim())
    const format = MEDIA_TYPES[type]
    if (!format) continue
    const q = Number(parameters.find((p) => p.startsWith('q='))?.slice(2) ?? '1')
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { format, q }
  }
  return best?.format ?? 'json'
}

const statementRequestHeaders = z.object({
  accept: z.string().optional().meta({
    description: '`text/csv` for CSV, `application/xml` for ISO 20022 camt.053; anything else answers JSON.',
    example: 'text/csv',
  }),
})

export const statementRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/api/exchange/v1/accounts/:currency/statement',
    handler: async ({ ctx, params, query, header }) => {
      const statement = await accountStatement(ctx, params.currency!, query)
      const format = statementFormat(header('accept'))
      return { body: new StreamedBody(STATEMENT_CONTENT_TYPES[format], () => statementChunks(statement, format)) }
    },
    doc: {
      operationId: 'getAccountStatement',
      summary: 'Account statement',
      description:
        "Your tenant's account in one currency over [`from`, `to`): the balance at each end, the period's credits and debits, and every entry, oldest first (admins: another tenant's with `tenant_id`). At most 366 days. Streamed: a year of entries is answered in any form. `Accept: text/csv` answers CSV, `application/xml` ISO 20022 camt.053.001.08; anything else JSON.",
      tag: 'exchange',
      scope: ACCOUNTS_READ,
      params: accountParams,
      query: statementQuery,
      requestHeaders: statementRequestHeaders,
      responses: {
        200: {
          description: 'The statement',
          content: { 'application/json': statementSchema, 'text/csv': statementCsvText, 'application/xml': statementXmlText },
        },
      },
      errors: { forbidden: '`tenant_id` names another tenant', not_found: 'No currency has this code' },
    },
  },
]
