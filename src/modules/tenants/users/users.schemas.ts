import { z } from 'zod'

import { COMMON_FIELDS, listQuerySchema, makeHeads } from '../../../core/lists.ts'
import { commonRecordShape, listEnvelopeSchema, uuidText } from '../../../core/response-schemas.ts'

export const USER_FIELDS = [...COMMON_FIELDS, 'tenant_id', 'username', 'email', 'is_active'] as const

/** As in the reference's list envelope, heads also name `id` and `revision_id`, which items do not carry. */
export const USER_HEAD_FIELDS = ['id', 'revision_id', ...USER_FIELDS] as const
export const userHeads = makeHeads(USER_HEAD_FIELDS)

const USERNAME_SOURCE = '^[A-Za-z0-9_.-]+$'
const MAX_EMAIL_LENGTH = 254 // RFC 5321 path limit

/** The domain of an address is case-insensitive; the local part is kept as given (RFC 5321 §2.4). */
function lowerCaseDomain(email: string): string {
  const at = email.lastIndexOf('@')
  return email.slice(0, at) + email.slice(at).toLowerCase()
}

/** Fields other than these are ignored, as FastAPI models do by default. */
export const createUserInput = z
  .object({
    username: z
      .string()
      .min(3, { abort: true })
      .max(64, { abort: true })
      .regex(new RegExp(USERNAME_SOURCE), `string does not match regex "${USERNAME_SOURCE}"`)
      .meta({ description: 'Unique in the tenant, ignoring case.', example: 'alice.k' }),
    email: z
      .string()
      .trim()
      .max(MAX_EMAIL_LENGTH, { abort: true })
      .pipe(z.email())
      .transform(lowerCaseDomain)
      .meta({ description: 'A plain `local@domain.tld` address; its domain is stored lower-cased.', example: 'alice@bank.example' }),
  })
  .meta({ id: 'CreateUserRequest' })
export type CreateUserInput = z.input<typeof createUserInput>

export const uidPattern = z.guid()

export const listUsersQuery = listQuerySchema(
  {
    username: z.string().max(64, { abort: true }).optional().meta({ description: 'Exact username, ignoring case.' }),
    email: z.string().max(MAX_EMAIL_LENGTH, { abort: true }).trim().optional().meta({ description: 'Exact address, ignoring case.' }),
    tenant_id: z.uuid().optional().meta({ description: "Admins: one tenant's users. Others may name only their own tenant." }),
  },
  USER_FIELDS,
)

// --- Answers (docs/contracts.md) ---

export const userParams = z.object({ uid: z.string().meta({ description: "The user's uid (a UUID; anything else is 404)." }) })

export const userRecordSchema = z
  .object({
    ...commonRecordShape,
    tenant_id: uuidText,
    username: z.string().meta({ example: 'alice.k' }),
    email: z.string().meta({ example: 'alice@bank.example' }),
    is_active: z.boolean(),
  })
  .meta({ id: 'User' })

export const userListSchema = listEnvelopeSchema('UserList', userRecordSchema, USER_HEAD_FIELDS)
