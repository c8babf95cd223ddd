import type { DocumentedRoute } from '../../../http/router.ts'
import { createUserInput, listUsersQuery, userListSchema, userParams, userRecordSchema } from './users.schemas.ts'
import { createUser, getUser, listUsers } from './users.ts'

const USERS = '/api/user/v1/users'

export const userRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: USERS,
    handler: async ({ ctx, query }) => ({ body: await listUsers(ctx, query) }),
    doc: {
      operationId: 'listUsers',
      summary: 'List users',
      description: "Your tenant's users (admins: every tenant's, or one with `tenant_id`).",
      tag: 'users',
      scope: 'users:read',
      query: listUsersQuery,
      responses: { 200: { description: 'One page of users', body: userListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant (non-admins)' },
    },
  },
  {
    method: 'POST',
    path: USERS,
    handler: async ({ ctx, body }) => ({ status: 201, body: await createUser(ctx, body) }),
    doc: {
      operationId: 'createUser',
      summary: 'Create a user',
      description: 'In your own tenant. Unknown body fields are ignored.',
      tag: 'users',
      scope: 'users:write',
      body: createUserInput,
      bodyExamples: { user: { summary: 'A user', value: { username: 'alice.k', email: 'alice@bank.example' } } },
      responses: { 201: { description: 'Created', body: userRecordSchema } },
      errors: { conflict: 'The username is taken in this tenant (ignoring case)' },
    },
  },
  {
    method: 'GET',
    path: `${USERS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: await getUser(ctx, params.uid!) }),
    doc: {
      operationId: 'getUser',
      summary: 'One user',
      tag: 'users',
      scope: 'users:read',
      params: userParams,
      responses: { 200: { description: 'The user', body: userRecordSchema } },
      errors: { forbidden: "Another tenant's user", not_found: 'No user has this uid' },
    },
  },
]
