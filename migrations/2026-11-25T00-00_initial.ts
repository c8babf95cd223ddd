import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

const now = sql`timezone('utc', now())`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .execute()

  await db.schema
    .createTable('clients')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_digest', 'text', (c) => c.notNull())
    .addColumn('roles', sql`text[]`, (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema.createIndex('clients_tenant_idx').on('clients').column('tenant_id').execute()

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'jsonb', (c) => c.notNull())
    // JSON of the private JWK, or an AES-256-GCM envelope of it when KEY_ENCRYPTION_KEY is set.
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('activated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('retired_at', sql`timestamp(6)`)
    .execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('client_id', 'uuid', (c) => c.notNull().references('clients.id'))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id'))
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', sql`timestamp(6)`, (c) => c.notNull())
    .addColumn('revoked_at', sql`timestamp(6)`)
    .addColumn('revoked_reason', 'text')
    .execute()
  await db.schema.createIndex('sessions_client_idx').on('sessions').column('client_id').execute()
  await db.schema.createIndex('sessions_revoked_idx').on('sessions').column('revoked_at').execute()

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('jti', 'uuid', (c) => c.primaryKey())
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('client_id', 'uuid', (c) => c.notNull().references('clients.id'))
    .addColumn('issued_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', sql`timestamp(6)`, (c) => c.notNull())
    .addColumn('used_at', sql`timestamp(6)`)
    .addColumn('revoked_at', sql`timestamp(6)`)
    .execute()
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute()

  await db.schema
    .createTable('currencies')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_fa', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('precision', 'integer', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('is_crypto', 'boolean', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().check(sql`color ~ '^#[0-9a-f]{6}$'`))
    .addColumn('unit_value_irr', 'bigint', (c) => c.notNull().check(sql`unit_value_irr > 0`))
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .execute()

  await db.schema
    .createTable('symbols')
    .addColumn('uid', 'uuid', (c) => c.primaryKey())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('is_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('meta_data', 'jsonb')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('base', 'text', (c) => c.notNull().references('currencies.code'))
    .addColumn('quote', 'text', (c) => c.notNull().references('currencies.code'))
    .addColumn('price_precision', 'integer', (c) => c.notNull())
    .addColumn('quantity_precision', 'integer', (c) => c.notNull())
    .addColumn('min_order_quantity', 'numeric', (c) => c.notNull().check(sql`min_order_quantity > 0`))
    .addColumn('tick_size', 'numeric', (c) => c.notNull().check(sql`tick_size > 0`))
    .addColumn('daily_fluctuation_price_limit_percent', 'numeric', (c) => c.notNull().check(sql`daily_fluctuation_price_limit_percent >= 0`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('reference_price', 'numeric', (c) => c.check(sql`reference_price > 0`))
    .addCheckConstraint('symbols_name_matches_pair', sql`symbol = base || '-' || quote`)
    .execute()

  await db.schema
    .createTable('orders')
    .addColumn('uid', 'uuid', (c) => c.primaryKey())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('is_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('meta_data', 'jsonb')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id'))
    .addColumn('client_order_id', 'text')
    .addColumn('symbol', 'text', (c) => c.notNull().references('symbols.symbol'))
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('limit', 'market')`))
    .addColumn('quantity', 'numeric', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('price', 'numeric', (c) => c.check(sql`price > 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('open', 'partially_filled', 'filled', 'cancelled', 'rejected')`),
    )
    .addColumn('filled_quantity', 'numeric', (c) => c.notNull().defaultTo('0').check(sql`filled_quantity >= 0`))
    .addUniqueConstraint('orders_tenant_client_order_id_key', ['tenant_id', 'client_order_id'])
    .addCheckConstraint('orders_limit_has_price', sql`(type = 'limit') = (price is not null)`)
    .execute()
  await db.schema.createIndex('orders_tenant_created_idx').on('orders').columns(['tenant_id', 'created_at']).execute()

  await db.schema
    .createTable('users')
    .addColumn('uid', 'uuid', (c) => c.primaryKey())
    .addColumn('created_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', sql`timestamp(6)`, (c) => c.notNull().defaultTo(now))
    .addColumn('is_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('meta_data', 'jsonb')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addUniqueConstraint('users_tenant_username_key', ['tenant_id', 'username'])
    .execute()
  await db.schema.createIndex('users_tenant_created_idx').on('users').columns(['tenant_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'orders', 'symbols', 'currencies', 'refresh_tokens', 'sessions', 'signing_keys', 'clients', 'tenants']) {
    await db.schema.dropTable(table).execute()
  }
}
