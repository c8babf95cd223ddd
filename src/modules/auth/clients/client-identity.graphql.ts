import { builder } from '../../../graphql/builder.ts'
import { type ClientIdentity, getViewer } from './client-identity.ts'

const ClientType = builder.objectRef<ClientIdentity>('Client').implement({
  description: 'A client of the exchange (a bank system holding client credentials).',
  fields: (t) => ({
    uid: t.exposeString('uid'),
    name: t.exposeString('name'),
    tenantId: t.exposeString('tenant_id'),
    roles: t.exposeStringList('roles'),
    scopes: t.exposeStringList('scopes'),
    isActive: t.exposeBoolean('is_active'),
    createdAt: t.expose('created_at', { type: 'DateTime' }),
    updatedAt: t.expose('updated_at', { type: 'DateTime' }),
  }),
})

builder.queryField('viewer', (t) =>
  t.field({
    type: ClientType,
    description: 'The record of the calling client.',
    resolve: (_root, _args, ctx) => getViewer(ctx),
  }),
)
