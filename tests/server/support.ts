// Server test support: the real server (createServer) over real HTTP on a free port, on each
// database engine. SQLite always; PostgreSQL and MariaDB when they answer (required under
// CI=true). Each server gets a fresh database that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { ApiError, createApiClient, type ApiClient, type ServerPluginModule } from '../../src/core/index.ts';
import { createServer, type Server } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { cookieFetch } from '../harness/shellTester.ts';

export type Engine = 'sqlite' | 'postgres' | 'mysql';

const PG_ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_ADMIN = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

async function reachable(engine: Engine): Promise<boolean> {
  try {
    if (engine === 'postgres') {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 1500 });
      await client.connect();
      await client.end();
    } else if (engine === 'mysql') {
      const mysql = await import('mysql2/promise');
      const conn = await mysql.createConnection({ uri: MYSQL_ADMIN, connectTimeout: 1500 });
      await conn.end();
    }
    return true;
  } catch {
    return false;
  }
}

/** The engines to test on: all three in CI (a missing one fails), the reachable (or TEST_ENGINES) ones elsewhere. */
export async function engines(): Promise<Engine[]> {
  const list: Engine[] = ['sqlite'];
  // TEST_ENGINES=sqlite (or sqlite,postgres) narrows a local loop; CI ignores it and runs all three.
  const wanted = process.env.CI === 'true' ? undefined : process.env.TEST_ENGINES?.split(',');
  for (const engine of ['postgres', 'mysql'] as const) {
    if (wanted && !wanted.includes(engine)) continue;
    if (await reachable(engine)) list.push(engine);
    else if (process.env.CI === 'true') throw new Error(`${engine} is required under CI=true but does not answer`);
    else console.warn(`[server tests] skipping ${engine}: it does not answer`);
  }
  return list;
}

/** Creates an empty database on the engine; returns its URL and a function that drops it. */
export async function freshDatabase(engine: Engine): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shellchat_test_${randomBytes(6).toString('hex')}`;
  if (engine === 'sqlite') return { url: '', drop: async () => {} };
  if (engine === 'postgres') {
    const pg = await import('pg');
    const admin = async (sql: string) => {
      const client = new pg.default.Client({ connectionString: PG_ADMIN });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN);
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const mysql = await import('mysql2/promise');
  const admin = async (sql: string) => {
    const conn = await mysql.createConnection({ uri: MYSQL_ADMIN });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
  };
  await admin(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  const url = new URL(MYSQL_ADMIN);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) };
}

export interface TestServer {
  url: string;
  server: Server;
  /** Every structured log line written so far, as text. */
  logs(): string;
  /** A new API client with its own cookie jar: one browser. */
  client(): ApiClient & { cookies: Map<string, string>; raw: typeof fetch };
  close(): Promise<void>;
}

export async function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  plugins: ServerPluginModule[] = [],
  options: { clock?: () => number } = {},
): Promise<TestServer> {
  const database = await freshDatabase(engine);
  let logText = '';
  const destination = new Writable({
    write(chunk, _enc, done) {
      logText += String(chunk);
      done();
    },
  });
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-data-')),
    DATABASE_URL: database.url,
    ROOT_PASSWORD: 'root-password-1',
    SHELLCHAT_DIST: path.join(tmpdir(), 'shellchat-no-dist'),
    LOG_LEVEL: 'info',
    ...env,
  });
  const server = await createServer(config, { logDestination: destination, plugins, ...(options.clock ? { clock: options.clock } : {}) });
  let http: ServerType;
  const url = await new Promise<string>((resolve) => {
    http = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
  });
  return {
    url,
    server,
    logs: () => logText,
    client() {
      const jar = cookieFetch();
      return Object.assign(createApiClient({ baseUrl: url, fetch: jar }), { cookies: jar.cookies, raw: jar as typeof fetch });
    },
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await server.close();
      await database.drop();
    },
  };
}

/** The status and error of a request that must fail (an ApiError); throws when it succeeds. */
export const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, error: err.message };
    throw err;
  }
  throw new Error('expected the request to fail');
};
