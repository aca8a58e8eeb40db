// The mysql data store against the real MariaDB: configured with a sealed password, initialized
// from the schema, and a model (fake) writing the SQL it runs; then its guards against 100+
// hostile statements (0 writes, 0 schema changes, 0 file reads), and each layer on its own.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, gateSql, guardedQuery, runReadOnly } from '../../plugins/store/server/mysqlGuard.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { createShellTester } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

const PW = 'hunter2hunter2';
const MYSQL_ADMIN = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

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
