// Column types that differ between the engines, so one migration serves all three.
import { sql, type ColumnDataType, type Expression } from 'kysely';
import type { Engine } from './connect.ts';

type DataType = ColumnDataType | Expression<unknown>;

export function columns(engine: Engine) {
  return {
    /** An auto-incrementing integer primary key. */
    id: (engine === 'postgres' ? 'serial' : 'integer') as DataType,
    /** Millisecond timestamps and other large integers. */
    bigint: (engine === 'sqlite' ? 'integer' : 'bigint') as DataType,
    double: (engine === 'postgres' ? 'double precision' : engine === 'mysql' ? sql`double` : 'real') as DataType,
    /** Short indexed text (names, e-mails, hashes): MySQL cannot index TEXT. */
    name: (engine === 'sqlite' ? 'text' : 'varchar(255)') as DataType,
    /** Long text: MySQL's TEXT stops at 64 KB. */
    text: (engine === 'mysql' ? sql`mediumtext` : 'text') as DataType,
    /** Bytes (an upload's parts, up to 256 KB each): MySQL's BLOB stops at 64 KB. */
    blob: (engine === 'postgres' ? 'bytea' : engine === 'mysql' ? sql`mediumblob` : 'blob') as DataType,
  };
}
