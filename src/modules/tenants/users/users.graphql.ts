import type { ListEnvelope } from '../../../core/lists.ts'
import { listQueryFromArgs, nullIfNotFound, orderByInput } from '../../../graphql/args.ts'
import { builder } from '../../../graphql/builder.ts'
import { USER_FIELDS } from './users.schemas.ts'
import { createUser, getUser, listUsers, type UserRecord } from './users.ts'

/** GraphQL face of tenant users: camelCase arguments become the REST input, then the same operation runs. */
const User = builder.objectRef<UserRecord>('User').implement({
  description: 'A person who acts for a bank (tenant).',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    createdAt: t.expose('created_at', { type: 'DateTime' }),
    updatedAt: t.expose('updated_at', { type: 'DateTime' }),
    isDeleted: t.exposeBoolean('is_deleted'),
    metaData: t.expose('meta_data', { type: 'JSON', nullable: true }),
    userId: t.exposeID('user_id', { description: 'The client that created the record.' }),
    tenantId: t.exposeID('tenant_id'),
    username: t.exposeString('username'),
    email: t.exposeString('email'),
    isActive: t.exposeBoolean('is_active'),
  }),
})

const UserPage = builder.objectRef<ListEnvelope<UserRecord>>('UserPage').implement({
  description: 'One page of users, as the REST list envelope.',
  fields: (t) => ({
    heads: t.expose('heads', { type: 'JSON', description: 'Display labels keyed by REST field name.' }),
    items: t.expose('items', { type: [User] }),
    total: t.exposeInt('total', { description: 'Number of users matching the filter, over all pages.' }),
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
  }),
})

const UserFilter = builder.inputType('UserFilter', {
  fields: (t) => ({
    username: t.string({ description: 'Exact username, compared case-insensitively.' }),
    email: t.string({ description: 'Exact email address, compared case-insensitively.' }),
    tenantId: t.id({ description: "Another tenant's id is allowed for admins only." }),
    createdAtFrom: t.field({ type: 'DateTime' }),
    createdAtTo: t.field({ type: 'DateTime' }),
    updatedAtFrom: t.field({ type: 'DateTime' }),
    updatedAtTo: t.field({ type: 'DateTime' }),
  }),
})

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    username: t.string({ required: true, description: '3 to 64 of A-Z a-z 0-9 _ . -, unique (ignoring case) in the tenant.' }),
    email: t.string({ required: true }),
  }),
})

const UserOrderBy = orderByInput('User', USER_FIELDS)

builder.queryField('users', (t) =>
  t.field({
    type: UserPage,
    description: "Users of the caller's tenant (every tenant for admins). Requires users:read.",
    args: {
      filter: t.arg({ type: UserFilter }),
      offset: t.arg.int(),
      limit: t.arg.int(),
      orderBy: t.arg({ type: UserOrderBy }),
    },
    resolve: (_root, args, ctx) => listUsers(ctx, listQueryFromArgs(args)),
  }),
)

builder.queryField('user', (t) =>
  t.field({
    type: User,
    nullable: true,
    description: 'One user by uid; null when there is none. Requires users:read.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => nullIfNotFound(getUser(ctx, String(args.uid))),
  }),
)

builder.mutationField('createUser', (t) =>
  t.field({
    type: User,
    description: "Creates a user in the caller's tenant. Requires users:write.",
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: (_root, args, ctx) => createUser(ctx, () => ({ username: args.input.username, email: args.input.email })),
  }),
)
