// The guards of the mysql engine (security.md §4): the SQL a model writes runs only if it is one
// plain SELECT (parser gate), through a driver connection without multiple statements or LOCAL
// INFILE, to a host the egress policy allows, inside a READ ONLY transaction with a statement
// time limit, a row cap and a byte cap; then it is rolled back. Every layer holds on its own.
import mysql from 'mysql2/promise';

export const MAX_ROWS = 50;
export const MAX_RESULT_BYTES = 64 * 1024;
export const STATEMENT_MS = 3000;

/** Words that never appear, outside string literals, in a query we run. */
const FORBIDDEN_WORDS = new Set([
  // writes, DDL, administration, procedural
  'insert', 'update', 'delete', 'replace', 'create', 'drop', 'alter', 'truncate', 'rename', 'grant', 'revoke',
  'set', 'call', 'do', 'handler', 'prepare', 'execute', 'deallocate', 'flush', 'kill', 'shutdown', 'install',
  'uninstall', 'lock', 'unlock', 'load', 'commit', 'rollback', 'savepoint', 'start', 'begin', 'xa', 'purge',
  'reset', 'change', 'optimize', 'repair', 'analyze', 'check', 'checksum', 'cache', 'use', 'show', 'describe',
  'explain', 'help', 'binlog', 'signal', 'resignal', 'declare', 'procedure', 'function', 'trigger', 'event',
  'view', 'table', 'tables', 'database', 'schema', 'user', 'role', 'password', 'index', 'values', 'returning',
  // files and side channels
  'into', 'outfile', 'dumpfile', 'infile', 'load_file', 'sleep', 'benchmark', 'get_lock', 'release_lock',
  'release_all_locks', 'is_free_lock', 'is_used_lock', 'master_pos_wait', 'source_pos_wait', 'master_gtid_wait',
  'sys_exec', 'sys_eval', 'sys_get', 'sys_set', 'lo_import', 'column_get', 'nextval', 'setval', 'lastval',
  // locking clauses
  'share', 'nowait', 'skip', 'locked',
  // system schemas
  'mysql', 'information_schema', 'performance_schema', 'sys',
]);

export type GateResult = { ok: true; sql: string } | { ok: false; reason: string };

interface Token {
  kind: 'word' | 'string' | 'number' | 'symbol' | 'ident';
  text: string;
}

/** A conservative lexer: comments, backslashes, variables and statement separators are refused. */
function lex(sql: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '#' || (ch === '-' && next === '-') || (ch === '/' && next === '*') || (ch === '*' && next === '/')) return 'comments are not allowed';
    if (ch === ';') return 'only one statement is allowed';
    if (ch === '\\') return 'backslashes are not allowed';
    if (ch === '@') return 'variables are not allowed';
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) return 'unterminated string';
        if (sql[j] === '\\') return 'backslashes are not allowed';
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) {
            text += ch;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j];
        j++;
      }
      tokens.push({ kind: 'string', text });
      i = j + 1;
      continue;
    }
    if (ch === '`') {
      const end = sql.indexOf('`', i + 1);
      if (end < 0) return 'unterminated identifier';
      const text = sql.slice(i + 1, end);
      if (!/^[\p{L}\p{N}_$ -]+$/u.test(text)) return 'unusual quoted identifier';
      tokens.push({ kind: 'ident', text: text.toLowerCase() });
      i = end + 1;
      continue;
    }
    const word = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(sql.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0].toLowerCase() });
      i += word[0].length;
      continue;
    }
    const num = /^(0x[0-9a-f]+|0b[01]+|\d+(\.\d*)?(e[+-]?\d+)?|\.\d+)/i.exec(sql.slice(i));
    if (num) {
      tokens.push({ kind: 'number', text: num[0] });
      i += num[0].length;
      continue;
    }
    if ('(),.*+-/%<>=!|&^~?:'.includes(ch)) {
      tokens.push({ kind: 'symbol', text: ch });
      i++;
      continue;
    }
    return `unexpected character ${JSON.stringify(ch)}`;
  }
  return tokens;
}

/** Layer 4 of security.md §4: one SELECT (or WITH … SELECT), nothing that writes, reads files or waits. */
export function gateSql(raw: string): GateResult {
  const sql = raw.trim();
  if (!sql) return { ok: false, reason: 'empty query' };
  if (sql.length > 8000) return { ok: false, reason: 'query too long' };
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(sql)) return { ok: false, reason: 'control characters are not allowed' };
  const tokens = lex(sql);
  if (typeof tokens === 'string') return { ok: false, reason: tokens };
  const first = tokens[0];
  if (!first || first.kind !== 'word' || (first.text !== 'select' && first.text !== 'with')) return { ok: false, reason: 'only SELECT is allowed' };
  let depth = 0;
  for (const [n, t] of tokens.entries()) {
    if (t.kind === 'symbol' && t.text === '(') depth++;
    if (t.kind === 'symbol' && t.text === ')' && --depth < 0) return { ok: false, reason: 'unbalanced parentheses' };
    if ((t.kind === 'word' || t.kind === 'ident') && FORBIDDEN_WORDS.has(t.text)) return { ok: false, reason: `${t.text.toUpperCase()} is not allowed` };
    // `FOR UPDATE`: `update` is already refused; any other `FOR` after a SELECT is a locking clause.
    if (t.kind === 'word' && t.text === 'for' && tokens[n + 1]?.kind === 'word') return { ok: false, reason: 'locking clauses are not allowed' };
    if (t.kind === 'word' && t.text === 'procedure') return { ok: false, reason: 'PROCEDURE is not allowed' };
  }
  if (depth !== 0) return { ok: false, reason: 'unbalanced parentheses' };
  if (first.text === 'with' && !tokens.some((t) => t.kind === 'word' && t.text === 'select')) return { ok: false, reason: 'only SELECT is allowed' };
  return { ok: true, sql };
}

export interface MysqlTarget {
  /** The address to connect to, already checked by the egress policy (ctx.egressHost). */
  address: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** Layer 3: the driver's connection options. */
export function connectionOptions(target: MysqlTarget): mysql.ConnectionOptions {
  return {
    host: target.address,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    multipleStatements: false,
    // LOCAL INFILE off: the server (the user's choice) may not ask for any client file.
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    connectTimeout: 5000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  };
}

export async function connect(target: MysqlTarget): Promise<mysql.Connection> {
  return mysql.createConnection(connectionOptions(target));
}

export interface QueryResult {
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/**
 * Layers 2 and 5: runs an already gated SELECT in a READ ONLY transaction with a statement time
 * limit and a row limit, caps the bytes, and rolls back whatever happens.
 */
export async function runReadOnly(conn: mysql.Connection, sql: string, options: { maxRows?: number; maxBytes?: number; timeoutMs?: number } = {}): Promise<QueryResult> {
  const maxRows = options.maxRows ?? MAX_ROWS;
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES;
  const timeoutMs = options.timeoutMs ?? STATEMENT_MS;
  const [versionRows] = await conn.query('SELECT VERSION() AS v');
  const mariadb = /mariadb/i.test(String((versionRows as { v: string }[])[0]?.v ?? ''));
  // A known SQL mode (no ANSI_QUOTES, no NO_BACKSLASH_ESCAPES) so the gate's lexing holds.
  await conn.query("SET SESSION sql_mode = 'STRICT_ALL_TABLES'");
  if (mariadb) await conn.query(`SET SESSION max_statement_time = ${(timeoutMs / 1000).toFixed(3)}`);
  else await conn.query(`SET SESSION max_execution_time = ${Math.round(timeoutMs)}`);
  await conn.query(`SET SESSION sql_select_limit = ${maxRows + 1}`);
  await conn.query('START TRANSACTION READ ONLY');
  try {
    const [rows] = await conn.query({ sql, timeout: timeoutMs + 1000, rowsAsArray: false });
    if (!Array.isArray(rows)) throw new Error('Not a result set.');
    const list = rows as Record<string, unknown>[];
    let truncated = list.length > maxRows;
    const kept: Record<string, unknown>[] = [];
    let bytes = 0;
    for (const row of list.slice(0, maxRows)) {
      const size = Buffer.byteLength(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? `<${v.length} bytes>` : v)));
      if (bytes + size > maxBytes) {
        truncated = true;
        break;
      }
      bytes += size;
      kept.push(row);
    }
    return { rows: kept, truncated };
  } finally {
    await conn.query('ROLLBACK').catch(() => undefined);
  }
}

/** The whole path for SQL a model wrote: gate, then the read-only run. */
export async function guardedQuery(conn: mysql.Connection, sql: string, options?: Parameters<typeof runReadOnly>[2]): Promise<QueryResult> {
  const gate = gateSql(sql);
  if (!gate.ok) throw new Error(`Query refused: ${gate.reason}.`);
  return runReadOnly(conn, gate.sql, options);
}

/** `:store init`: the tables (or only the configured ones) and their columns, as schema text. */
export async function readSchema(conn: mysql.Connection, database: string, only: string[]): Promise<string> {
  const [tables] = await conn.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME', [database]);
  const names = (tables as { t: string }[]).map((r) => r.t).filter((t) => !only.length || only.includes(t));
  const lines: string[] = [];
  for (const name of names.slice(0, 100)) {
    const [cols] = await conn.query(
      'SELECT COLUMN_NAME AS c, COLUMN_TYPE AS ty FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
      [database, name],
    );
    lines.push(`Table: ${name}\nColumns: ${(cols as { c: string; ty: string }[]).map((c) => `${c.c} ${c.ty}`).join(', ')}`);
  }
  return lines.join('\n\n');
}

/** Layer 1 probe: write-capable grants of the account, for a warning. */
export async function writeGrants(conn: mysql.Connection): Promise<string[]> {
  try {
    const [rows] = await conn.query('SHOW GRANTS');
    const text = (rows as Record<string, string>[]).map((r) => Object.values(r)[0] ?? '').join('\n').toUpperCase();
    return ['ALL PRIVILEGES', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'FILE', 'SUPER', 'PROCESS', 'EXECUTE'].filter((p) => new RegExp(`\\b${p}\\b`).test(text));
  } catch {
    return [];
  }
}

/** The SQL out of a model's answer: JSON {"query": "..."}, a fenced block, or the bare text. */
export function sqlFromAnswer(answer: string): string {
  const text = answer.trim();
  const fenced = /```(?:sql|json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  if (body.startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { query?: unknown };
      return typeof parsed.query === 'string' ? parsed.query.trim() : '';
    } catch {
      return '';
    }
  }
  return body;
}
