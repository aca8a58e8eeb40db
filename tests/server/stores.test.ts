// Data stores end to end: the real server on every engine, the real commands through the shell
// tester, documents served over HTTP (txt/md, PDF, DOCX) indexed into the engine's full-text
// index, searched, and handed to the model as support data; then the mysql engine against the
// real MariaDB with a model (fake) writing SQL, and its guards against 100+ hostile statements.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { docxWith, pdfWith } from '../fixtures/documents.ts';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/shell/chat/client.ts';
import { connect, gateSql, guardedQuery, runReadOnly } from '../../plugins/store/server/mysqlGuard.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { createShellTester } from '../harness/shellTester.ts';
import { engines, startTestServer, type TestServer } from './support.ts';

const PW = 'hunter2hunter2';
const MYSQL_ADMIN = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';


let files: Server;
let filesUrl = '';
const FILES: Record<string, Buffer | (() => Promise<Buffer>)> = {
  'guide.md': Buffer.from('# Guide\n\nTo configure the frobnicator, open the settings panel and set the flux level to seven.\n\nUnrelated text about gardens and weather.'),
  'manual.pdf': pdfWith('The quantum widget needs a calibration every week.'),
  'notes.docx': () => docxWith('Remember the zebrafish aquarium password policy.'),
  'data.csv': Buffer.from('city,population\nOslo,700000\nBergen,285000\n'),
  'big.txt': Buffer.alloc(10 * 1024 * 1024 + 1, 'a'),
};

beforeAll(async () => {
  files = createServer(async (req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const body = FILES[name];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200).end(typeof body === 'function' ? await body() : body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => files?.close(() => resolve()));
});

describe.each(await engines())('stores on %s', (engine) => {
  let t: TestServer;
  let fake: FakeOpenAI;
  let seq = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-x', EGRESS_ALLOW_HOSTS: new URL(filesUrl).host });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function loggedIn() {
    const username = `store${engine}${++seq}`;
    await t.client().post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    const tester = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url });
    expect((await tester.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
    return Object.assign(tester, { username });
  }

  it('needs a login', async () => {
    const tester = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url });
    expect((await tester.run(':store ls')).errors).toEqual(['Please login.']);
  });

  it('adds, activates, uploads, indexes and searches a file store; the model gets the results with their sources', async () => {
    const s = await loggedIn();
    expect((await s.run(':store add "nope" "x"')).errors).toEqual(['Invalid engine. Valid engines are: file, mysql.']);
    expect((await s.run(':store add "file" "docs"')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('docs');
    expect((await s.run(':store use "docs"')).errors).toEqual(['Store `docs` is already active.']);
    const up = await s.run(`:store data upload +file[${filesUrl}/guide.md] +file[${filesUrl}/manual.pdf] +file[${filesUrl}/notes.docx] +file[${filesUrl}/data.csv]`);
    expect(up.errors).toEqual([]);
    expect(up.text).toContain('4 file(s) uploaded');
    expect((await s.run(':store search frobnicator')).errors).toEqual(['Search text must be quoted with double quotes.']);
    const found = await s.run(':store search "how do I configure the frobnicator"');
    expect(found.text).toContain('guide.md');
    expect(found.text).toContain('**frobnicator**');
    expect((await s.run(':store search "what about the quantum widget calibration"')).text).toContain('manual.pdf');
    expect((await s.run(':store search "zebrafish aquarium"')).text).toContain('notes.docx');
    expect((await s.run(':store search "population of Bergen"')).text).toContain('data.csv');
    expect((await s.run(':store search "nonexistentwordxyz"')).text).toContain('No result found.');
    const ls = await s.run(':store ls');
    expect(ls.outputs[0]).toMatchObject({ kind: 'list', items: [{ text: 'docs (file)', active: true }] });
    const details = await s.run(':store "docs"');
    expect(details.text).toContain('manual.pdf');

    // Chat: the top results reach the model as support data, with the file name.
    fake.reply({ text: 'Seven.' });
    const events: GenerationEvent[] = [];
    const api = t.client();
    await api.post('/api/user/login', { username: s.username, password: PW });
    await streamGeneration({ session: Date.now(), user_input: 'How do I configure the frobnicator?', stores: 'docs', use_stats: true } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: api.raw,
    });
    expect(events).toContainEqual({ type: 'status', text: 'Searching...' });
    const system = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(system).toContain('Support data');
    expect(system).toContain('guide.md');
    expect(system).toContain('flux level');
    const stats = events.find((e) => e.type === 'stats') as { stats: { stores: string } } | undefined;
    expect(stats?.stats.stores).toBe('docs');

    // Three at most; one store for set/reset/owner; delete leaves the active list.
    await s.run(':store add "file" "two"');
    await s.run(':store add "file" "three"');
    expect(s.settings.get('stores')).toBe('docs,two,three');
    expect((await s.run(':store add "file" "four"')).errors).toEqual(['You can only use 3 stores at the same time. Please unuse one of them first.']);
    expect((await s.run(':store set description "x"')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store data reset')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store set owner root')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store del "two"')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('docs,three');
    expect((await s.run(':store unuse "three"')).errors).toEqual([]);
    expect((await s.run(':store set colour "red"')).errors).toEqual(['Unknown key. Key must be one of: description']);
    expect((await s.run(':store set description "Product docs"')).errors).toEqual([]);
    expect((await s.run(':store data reset')).errors).toEqual([]);
    expect((await s.run(':store search "frobnicator"')).text).toContain('No result found.');
    expect((await s.run(':store reset')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('');
    expect((await s.run(':store use "missing"')).errors).toEqual(['Store not exists.']);
  }, 60_000);

  it('checks uploads: the allowed types and the 10MB limit, multipart or by URL', async () => {
    const s = await loggedIn();
    await s.run(':store add "file" "up"');
    expect((await s.run(`:store data upload +file[${filesUrl}/evil.exe]`)).errors).toEqual([
      'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.',
    ]);
    expect((await s.run(`:store data upload +file[${filesUrl}/big.txt]`)).errors).toEqual(['failed: file size exceeds 10MB']);
    const api = t.client();
    await api.post('/api/user/login', { username: s.username, password: PW });
    const form = (name: string, data: Buffer) => {
      const f = new FormData();
      f.set('name', 'up');
      f.append("files", new Blob([new Uint8Array(data)]), name);
      return f;
    };
    const send = (body: FormData) => api.raw(`${t.url}/api/store/file-upload`, { method: 'POST', body });
    let res = await send(form('x.exe', Buffer.from('MZ')));
    expect(await res.json()).toEqual({ success: false, error: 'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.' });
    res = await send(form('big.txt', FILES['big.txt'] as Buffer));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: 'failed: file size exceeds 10MB' });
    // Between 1 MB and 10 MB passes this route (the global 1 MB limit is raised only here).
    res = await send(form('mid.txt', Buffer.from('needle '.repeat(300_000))));
    expect(res.status).toBe(200);
    const other = await api.raw(`${t.url}/api/store/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ search: 'x'.repeat(2_000_000), store: 'up' }) });
    expect(other.status).toBe(413);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// The mysql engine against the real MariaDB.

const mysqlUp = await (async () => {
  try {
    const conn = await mysql.createConnection({ uri: MYSQL_ADMIN, connectTimeout: 1500 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
})();
// Locally a missing MariaDB skips these; under CI=true it is a failure, never a silent skip.
if (!mysqlUp && process.env.CI === 'true') throw new Error('MariaDB is required under CI=true (127.0.0.1:3306)');

describe.skipIf(!mysqlUp)('the mysql engine on MariaDB', () => {
  const dbName = `shellchat_store_${randomBytes(5).toString('hex')}`;
  const roUser = `sc_ro_${randomBytes(3).toString('hex')}`;
  const roPass = `pw_${randomBytes(8).toString('hex')}`;
  const outfile = `/tmp/shellchat_pwn_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection;
  let t: TestServer;
  let fake: FakeOpenAI;

  const snapshot = async () => {
    const [tables] = await admin.query('SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN (?, ?) ORDER BY 1, 2', ['information_schema', 'performance_schema']);
    const [columns] = await admin.query('SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY 1, 2, 3', [dbName]);
    const [routines] = await admin.query('SELECT ROUTINE_SCHEMA, ROUTINE_NAME FROM information_schema.ROUTINES ORDER BY 1, 2');
    const [triggers] = await admin.query('SELECT TRIGGER_SCHEMA, TRIGGER_NAME FROM information_schema.TRIGGERS ORDER BY 1, 2');
    const [users] = await admin.query('SELECT User, Host FROM mysql.user ORDER BY 1, 2');
    const [schemata] = await admin.query('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY 1');
    return JSON.stringify({ tables, columns, routines, triggers, users, schemata });
  };
  const counts = async () => {
    const [rows] = await admin.query(`SELECT (SELECT COUNT(*) FROM \`${dbName}\`.cities) AS cities, (SELECT COUNT(*) FROM \`${dbName}\`.secrets) AS secrets, (SELECT SUM(population) FROM \`${dbName}\`.cities) AS pop`);
    return JSON.stringify(rows);
  };

  beforeAll(async () => {
    admin = await mysql.createConnection({ uri: MYSQL_ADMIN });
    await admin.query(`CREATE DATABASE \`${dbName}\``);
    await admin.query(`CREATE TABLE \`${dbName}\`.cities (id INT PRIMARY KEY, name VARCHAR(64), population INT)`);
    await admin.query(`CREATE TABLE \`${dbName}\`.secrets (id INT PRIMARY KEY, note VARCHAR(64))`);
    await admin.query(`INSERT INTO \`${dbName}\`.cities VALUES (1, 'Oslo', 700000), (2, 'Bergen', 285000), (3, 'Trondheim', 210000)`);
    await admin.query(`INSERT INTO \`${dbName}\`.secrets VALUES (1, 'keep')`);
    // The account layer: SELECT only on the throwaway database.
    await admin.query(`CREATE USER '${roUser}'@'%' IDENTIFIED BY '${roPass}'`);
    await admin.query(`GRANT SELECT ON \`${dbName}\`.* TO '${roUser}'@'%'`);
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-x', EGRESS_ALLOW_HOSTS: '127.0.0.1:3306' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await admin?.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
    await admin?.query(`DROP USER IF EXISTS '${roUser}'@'%'`);
    await admin?.end();
  });

  it('is configured with a sealed password, initialized from the schema, and answers through one guarded SELECT', async () => {
    const username = `mysqluser${randomBytes(2).toString('hex')}`;
    await t.client().post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    const s = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url });
    await s.run(`:login ${username} ${PW}`);
    expect((await s.run(':store add "mysql" "pop"')).errors).toEqual([]);
    expect((await s.run(':store set host "10.1.2.3"')).errors[0]).toMatch(/private address/);
    for (const line of [':store set host "127.0.0.1"', `:store set user "${roUser}"`, `:store set password "${roPass}"`, `:store set database "${dbName}"`, ':store set table "cities"']) {
      const r = await s.run(line);
      expect(r.errors, line).toEqual([]);
      expect(r.remember).toBe(false);
    }
    expect((await s.run(':store set port "abc"')).errors).toEqual(['Invalid value. Value must be a number.']);
    expect((await s.run(':store set files "x"')).errors).toEqual(['Unknown key. Key must be one of: host, port, user, password, database, table, description, model']);
    const stored = await t.server.db.db.selectFrom('stores' as never).selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(roPass);
    expect((await s.run(':store "pop"')).text).not.toContain(roPass);
    const init = await s.run(':store init');
    expect(init.errors).toEqual([]);
    expect(init.text).toContain('initialized');
    fake.reply({ text: '{"query": "SELECT name, population FROM cities ORDER BY population DESC LIMIT 10"}' });
    const answer = await s.run(':store search "Which city is the largest?"');
    expect(answer.errors).toEqual([]);
    expect(answer.text).toContain('Oslo');
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('Table: cities');
    // A model told to write a DROP gets refused, and nothing changes.
    const before = await snapshot();
    fake.reply({ text: '{"query": "DROP TABLE cities"}' });
    const refused = await s.run(':store search "drop everything"');
    expect(refused.text).toMatch(/Query refused/);
    expect(await snapshot()).toBe(before);
  }, 60_000);

  /** Statements a hostile or confused model might write. */
  function hostile(): string[] {
    const d = dbName;
    const base = [
      `INSERT INTO cities VALUES (9, 'X', 1)`,
      `insert into cities(id,name,population) select id+100,name,population from cities`,
      `UPDATE cities SET population = 0`,
      `update cities set name='pwned' where id=1`,
      `DELETE FROM cities`,
      `delete from secrets where 1=1`,
      `REPLACE INTO cities VALUES (1, 'Y', 2)`,
      `TRUNCATE TABLE cities`,
      `DROP TABLE cities`,
      `DROP DATABASE \`${d}\``,
      `CREATE TABLE pwn (a INT)`,
      `CREATE TABLE pwn AS SELECT * FROM cities`,
      `ALTER TABLE cities ADD COLUMN pwn INT`,
      `ALTER TABLE cities DROP COLUMN population`,
      `RENAME TABLE cities TO towns`,
      `CREATE INDEX pwn ON cities (name)`,
      `CREATE VIEW v AS SELECT 1`,
      `CREATE PROCEDURE p() SELECT 1`,
      `CREATE TRIGGER tr BEFORE INSERT ON cities FOR EACH ROW SET NEW.population = 0`,
      `CREATE USER 'evil'@'%' IDENTIFIED BY 'x'`,
      `GRANT ALL ON *.* TO '${roUser}'@'%'`,
      `SET PASSWORD = PASSWORD('x')`,
      `LOAD DATA INFILE '/etc/passwd' INTO TABLE cities`,
      `LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE cities`,
      `SELECT LOAD_FILE('/etc/passwd')`,
      `select load_file('/etc/hosts') as x`,
      `SELECT name FROM cities UNION SELECT LOAD_FILE('/etc/passwd')`,
      `SELECT * FROM cities INTO OUTFILE '${outfile}'`,
      `SELECT * FROM cities INTO DUMPFILE '${outfile}'`,
      `SELECT 'x' INTO OUTFILE '${outfile}.php'`,
      `SELECT name INTO @v FROM cities LIMIT 1`,
      `SELECT @@version`,
      `SELECT @@global.secure_file_priv`,
      `SELECT SLEEP(10)`,
      `SELECT BENCHMARK(100000000, MD5('x'))`,
      `SELECT GET_LOCK('a', 10)`,
      `SELECT * FROM cities FOR UPDATE`,
      `SELECT * FROM cities LOCK IN SHARE MODE`,
      `SELECT * FROM cities FOR SHARE`,
      `SELECT * FROM mysql.user`,
      `SELECT User, Password FROM mysql.user`,
      `SELECT * FROM information_schema.TABLES`,
      `SELECT * FROM performance_schema.threads`,
      `SELECT * FROM sys.version`,
      `SELECT * FROM \`mysql\`.\`user\``,
      `SELECT 1; DROP TABLE cities`,
      `SELECT 1;DELETE FROM cities`,
      `SELECT * FROM cities; INSERT INTO cities VALUES (10,'Z',1)`,
      `SELECT 1 -- ; DROP TABLE cities`,
      `SELECT 1 # comment`,
      `SELECT /* x */ 1`,
      `SELECT /*! 50000 1; DROP TABLE cities */`,
      `SELECT 1 /*!UNION SELECT LOAD_FILE('/etc/passwd')*/`,
      `SELECT '\\'; DROP TABLE cities; -- '`,
      `SELECT 'a\\' ; DROP TABLE cities`,
      `SELECT name FROM cities WHERE name = 'x' OR 1=1; UPDATE cities SET population=1`,
      `WITH x AS (SELECT 1) DELETE FROM cities`,
      `WITH x AS (SELECT 1) UPDATE cities SET population = 1`,
      `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT SLEEP(1) FROM r`,
      `CALL mysql.proc()`,
      `DO SLEEP(5)`,
      `HANDLER cities OPEN`,
      `PREPARE s FROM 'DROP TABLE cities'`,
      `EXECUTE s`,
      `SHOW GRANTS`,
      `SHOW DATABASES`,
      `DESCRIBE cities`,
      `EXPLAIN SELECT * FROM cities`,
      `FLUSH PRIVILEGES`,
      `KILL 1`,
      `SHUTDOWN`,
      `INSTALL PLUGIN x SONAME 'x.so'`,
      `LOCK TABLES cities WRITE`,
      `UNLOCK TABLES`,
      `START TRANSACTION`,
      `COMMIT`,
      `SET autocommit = 1`,
      `SET SESSION TRANSACTION READ WRITE`,
      `USE mysql`,
      `XA START 'x'`,
      `SELECT * FROM cities PROCEDURE ANALYSE()`,
      `SELECT sys_exec('id')`,
      `SELECT name FROM cities WHERE id = (SELECT LOAD_FILE('/etc/passwd'))`,
      `SELECT CONCAT(LOAD_FILE(0x2f6574632f706173737764))`,
      `SELECT * FROM cities WHERE 1 AND SLEEP(3)`,
      `SELECT IF(1, SLEEP(3), 0)`,
      `SELECT MASTER_POS_WAIT('x', 1)`,
      `SELECT RELEASE_LOCK('a')`,
      `(SELECT 1) UNION (SELECT LOAD_FILE('/etc/passwd'))`,
      `VALUES (1)`,
      `TABLE cities`,
      `SELECT NEXTVAL(s)`,
      `SELECT * FROM cities\nINTO OUTFILE '${outfile}'`,
      `SELECT * FROM cities WHERE name = 'a' INTO OUTFILE '${outfile}'`,
      `SeLeCt * FrOm cities InTo OuTfIlE '${outfile}'`,
      `SELECT\tLOAD_FILE('/etc/passwd')`,
      `SELECT * FROM cities WHERE id IN (SELECT id FROM mysql.user)`,
      `SELECT 1 FROM DUAL WHERE 1=1 UNION SELECT user FROM mysql.user`,
      `SELECT "x"; DROP TABLE cities`,
      `SELECT 1)); DROP TABLE cities; ((SELECT 1`,
      `SELECT (1`,
      `SELECT 1)`,
      `SELECT * FROM cities WHERE name = ')' ) UNION SELECT 1`,
      ``,
      `   `,
      `SELECT 1\u0000; DROP TABLE cities`,
      `INSERT/**/INTO cities VALUES (11,'Q',1)`,
      `/**/DELETE FROM cities`,
      `-- comment\nDELETE FROM cities`,
      `SELECT * FROM cities; `,
      `SELECT 1 FROM cities WHERE @a:=1`,
      `SELECT * FROM cities ORDER BY (SELECT SLEEP(2))`,
      `SELECT EXTRACTVALUE(1, CONCAT(0x5c, (SELECT LOAD_FILE('/etc/passwd'))))`,
      `CREATE TEMPORARY TABLE t AS SELECT * FROM cities`,
      `SELECT * INTO @x FROM cities`,
      `SELECT * FROM cities WHERE id = 1 FOR UPDATE NOWAIT`,
      `SELECT * FROM cities WHERE id = 1 FOR UPDATE SKIP LOCKED`,
    ];
    return base;
  }

  it(`refuses 100+ hostile statements: 0 writes, 0 schema changes, 0 file reads`, async () => {
    const statements = hostile();
    expect(statements.length).toBeGreaterThanOrEqual(100);
    const beforeSchema = await snapshot();
    const beforeRows = await counts();
    // The worst case for the other layers: an account that may do everything (root).
    const rootUrl = new URL(MYSQL_ADMIN);
    const target = { address: rootUrl.hostname, port: Number(rootUrl.port || 3306), user: decodeURIComponent(rootUrl.username), password: decodeURIComponent(rootUrl.password), database: dbName };
    const outcomes: { sql: string; ok: boolean; text: string }[] = [];
    for (const sql of statements) {
      const conn = await connect(target);
      try {
        const result = await guardedQuery(conn, sql, { timeoutMs: 1000 });
        outcomes.push({ sql, ok: true, text: JSON.stringify(result.rows) });
      } catch (err) {
        outcomes.push({ sql, ok: false, text: (err as Error).message });
      } finally {
        conn.destroy();
      }
    }
    expect(await counts()).toBe(beforeRows);
    expect(await snapshot()).toBe(beforeSchema);
    for (const o of outcomes) expect(o.text, o.sql).not.toMatch(/root:x:0:0|localhost|127\.0\.0\.1\s/);
    expect(existsSync(outfile)).toBe(false);
    expect(existsSync(`${outfile}.php`)).toBe(false);
    // Nothing hostile got through the gate at all.
    expect(outcomes.filter((o) => o.ok).map((o) => o.sql)).toEqual([]);
    // And the model-facing path refuses them too: every one of them fails the gate.
    for (const sql of statements) expect(gateSql(sql).ok, sql).toBe(false);
  }, 120_000);

  it('holds each layer on its own: the read-only transaction, the driver, the row cap and the time limit', async () => {
    const rootUrl = new URL(MYSQL_ADMIN);
    const target = { address: rootUrl.hostname, port: Number(rootUrl.port || 3306), user: decodeURIComponent(rootUrl.username), password: decodeURIComponent(rootUrl.password), database: dbName };
    const beforeRows = await counts();
    // Layer 2 alone (the gate bypassed): writes fail inside READ ONLY and are rolled back.
    for (const sql of [`INSERT INTO cities VALUES (50, 'R', 1)`, `UPDATE cities SET population = 0`, `DELETE FROM cities`, `DELETE FROM secrets`]) {
      const conn = await connect(target);
      await expect(runReadOnly(conn, sql), sql).rejects.toThrow(/READ ONLY|read-only|Not a result set/i);
      conn.destroy();
    }
    expect(await counts()).toBe(beforeRows);
    // Layer 3 alone: the driver refuses stacked statements and LOCAL INFILE.
    const conn = await connect(target);
    await expect(conn.query('SELECT 1; DELETE FROM cities')).rejects.toThrow();
    await expect(conn.query(`LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE secrets`)).rejects.toThrow();
    conn.destroy();
    expect(await counts()).toBe(beforeRows);
    // Layer 5: rows and bytes are capped.
    const c2 = await connect(target);
    const many = await runReadOnly(c2, 'SELECT a.id FROM cities a, cities b, cities c, cities d', { maxRows: 10 });
    expect(many.rows.length).toBe(10);
    expect(many.truncated).toBe(true);
    const wide = await runReadOnly(c2, "SELECT REPEAT('x', 50000) AS big FROM cities", { maxBytes: 64 * 1024 });
    expect(wide.rows.length).toBe(1);
    expect(wide.truncated).toBe(true);
    // The statement time limit stops a slow query (SLEEP is refused by the gate, so bypass it).
    const started = Date.now();
    const slow = await runReadOnly(c2, 'SELECT SLEEP(5) AS s', { timeoutMs: 500 }).catch((err: Error) => err);
    expect(Date.now() - started).toBeLessThan(3000);
    // MariaDB interrupts SLEEP by returning 1 or with error 1969.
    expect(slow instanceof Error ? slow.message : JSON.stringify(slow.rows)).toMatch(/max_statement_time|1|interrupted/i);
    c2.destroy();
  }, 60_000);
});
