import type { ColumnType } from 'kysely'

/** `timestamp(6)` in UTC, read as Postgres text (`2026-11-25 21:30:00.123456`) so microseconds survive. */
export type Timestamp = ColumnType<string, string | undefined, string>
/** `numeric`, always a string: decimals never become floats. */
export type Decimal = ColumnType<string, string, string>
