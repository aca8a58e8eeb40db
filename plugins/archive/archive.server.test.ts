// `:session export` and `:session import` against the real server over HTTP: ChatGPT's export
// (conversations.json, the zip, the split files; branches, code, a picture, no model_slug),
// Claude's, shellchat's own JSON round trip into another account (the same logs and tree),
// idempotent re-imports, one's own only, and Markdown. Hostile archives: hostile.server.test.ts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerPluginModule } from '../../src/core/index.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportReport } from './common/api.ts';
import type { ExportedConversation } from './common/format.ts';
import { MESSAGES } from './common/messages.ts';
import { branchy, chatgptZip, claudeBranched, claudeConversation, claudeZip, json, noSlug, simple } from './fixtures/exports.ts';

const PW = 'archive-password-1';

/** Another plugin's column of logs (ctx.sessions.addLogColumn), which the import writes with each log as a turn does. */
const counted: ServerPluginModule = {
  migrations: { '0001_counts': () => ({ up: async (db) => void (await sql`ALTER TABLE logs ADD COLUMN probe_counts varchar(40)`.execute(db)) }) },
  register: (ctx) => ctx.sessions.addLogColumn({ name: 'probe_counts', value: ({ input, output }) => `${input.length}/${output.length}` }),
};

interface Account {
  username: string;
  raw: typeof fetch;
}

type Tree = { parent: number | null; branch_time: number | null; logs: { time: number; model: string; input: string; output: string }[] }[];

for (const engine of await engines()) {
  // Generous per test: the machine is shared, and PostgreSQL and MySQL take longer per transaction.
  describe(`archive on ${engine}`, { timeout: 30_000 }, () => {
    let server: TestServer;
    let seq = 0;

    beforeAll(async () => {
      server = await startTestServer(engine, {}, [counted]);
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    async function account(): Promise<Account> {
      const username = `arch${engine.slice(0, 2)}${++seq}`;
      await server.server.accounts.create({ username, email: `${username}@example.org`, password: PW });
      const client = server.client();
      await client.post('/api/user/login', { username, password: PW });
      return { username, raw: client.raw };
    }

    async function importing(who: Account, body: Uint8Array | string, name = 'export.json') {
      const res = await who.raw(`${server.url}/api/archive/import?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: typeof body === 'string' ? body : Buffer.from(body),
      });
      return { status: res.status, body: (await res.json()) as { success: boolean; result: ImportReport; message?: string; error?: string; code?: string } };
    }

    async function exporting(who: Account, query: string) {
      const res = await who.raw(`${server.url}/api/archive/export?${query}`);
      return { status: res.status, type: res.headers.get('content-type') ?? '', disposition: res.headers.get('content-disposition') ?? '', text: await res.text() };
    }

    /** The account's sessions and logs as a tree: parents by position, times and texts. */
    async function treeOf(username: string): Promise<Tree> {
      const db = server.server.db.db;
      const user = (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
      const sessions = await db.selectFrom('sessions').selectAll().where('user_id', '=', user).orderBy('id').execute();
      const index = new Map(sessions.map((s, i) => [Number(s.id), i]));
      const out: Tree = [];
      for (const s of sessions) {
        const logs = await db.selectFrom('logs').select(['time', 'model', 'input', 'output']).where('session', '=', s.id).orderBy('time').execute();
        out.push({
          parent: s.parent_id === null ? null : (index.get(Number(s.parent_id)) ?? -1),
          branch_time: s.branch_time === null ? null : Number(s.branch_time),
          logs: logs.map((l) => ({ time: Number(l.time), model: l.model, input: l.input, output: l.output })),
        });
      }
      return out;
    }
    const count = async (table: 'sessions' | 'logs') => Number((await server.server.db.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it("imports ChatGPT's conversations.json: both branches kept, code fenced, the picture named, a missing model_slug handled", async () => {
      const ada = await account();
      const { status, body } = await importing(ada, json([branchy, noSlug]), 'conversations.json');
      expect(status).toBe(200);
      expect(body.message).toBe(MESSAGES.summary(2, 0, 0).text);
      expect(body.result.conversations.map((c) => [c.title, c.source, c.status, c.sessions, c.logs])).toEqual([
        ['Monads and pictures', 'chatgpt', 'imported', 3, 5],
        ['No model slug', 'chatgpt', 'imported', 1, 1],
      ]);
      const tree = await treeOf(ada.username);
      expect(tree).toHaveLength(4);
      // The path to current_node: the regenerated answer, the Python question, the picture.
      const main = tree.find((s) => s.logs[0]?.input === 'What is a monad?' && s.parent === null)!;
      expect(main.logs.map((l) => [l.input, l.model])).toEqual([
        ['What is a monad?', 'gpt-4o'],
        ['Compute 2+2 in Python.', 'gpt-4o'],
        ['[image: file-Pic123]\n\nWhat is in this picture?', 'gpt-4o'],
      ]);
      expect(main.logs[0]!.output).toBe('A way to chain computations with context.');
      // Another plugin's column of logs, written with each imported log (the batch's multi-row insert and all).
      const probe = await sql<{ c: string | null }>`SELECT probe_counts AS c FROM logs WHERE output = 'A way to chain computations with context.'`.execute(server.server.db.db);
      expect(probe.rows.map((r) => r.c)).toEqual([`${'What is a monad?'.length}/${'A way to chain computations with context.'.length}`]);
      expect(main.logs[1]!.output).toBe('```python\nprint(2 + 2)\n```\n\n```\n4\n```\n\nThe result is 4.');
      const mainIndex = tree.indexOf(main);
      // The edited question: a branch after the first log; the first answer (gpt-4): a branch before it.
      const edited = tree.find((s) => s.logs[0]?.input === 'Compute 2+2 in Haskell.')!;
      expect(edited).toMatchObject({ parent: mainIndex, branch_time: main.logs[0]!.time });
      const first = tree.find((s) => s.logs[0]?.output === 'A monoid in the category of endofunctors.')!;
      expect(first).toMatchObject({ parent: mainIndex, branch_time: main.logs[0]!.time - 1 });
      expect(first.logs[0]!.model).toBe('gpt-4');
      const plain = tree.find((s) => s.logs[0]?.input === 'Hello there')!;
      expect(plain.logs).toEqual([expect.objectContaining({ model: 'chatgpt', output: 'General Kenobi.', time: (1_717_000_000 + 1001) * 1000 })]);
      // Times rise within each session.
      for (const s of tree) for (let i = 1; i < s.logs.length; i++) expect(s.logs[i]!.time).toBeGreaterThan(s.logs[i - 1]!.time);
    });

    it('reads the zip with split conversations-NNN.json files the same, and again adds nothing', async () => {
      const bob = await account();
      const all = [branchy, noSlug, simple(1), simple(2), simple(3)];
      const zip = chatgptZip(all, 2);
      const first = await importing(bob, zip, 'chatgpt-export.zip');
      expect(first.status).toBe(200);
      expect(first.body.result).toMatchObject({ imported: 5, skipped: 0, refused: 0 });
      const sessions = await count('sessions');
      const logs = await count('logs');
      const again = await importing(bob, zip, 'chatgpt-export.zip');
      expect(again.body.result).toMatchObject({ imported: 0, skipped: 5, refused: 0 });
      expect(again.body.message).toBe(MESSAGES.summary(0, 5, 0).text);
      expect(again.body.result.conversations.every((c) => c.status === 'skipped' && c.session! > 0)).toBe(true);
      // The same conversations as one JSON file: still nothing new.
      const asJson = await importing(bob, json(all), 'conversations.json');
      expect(asJson.body.result).toMatchObject({ imported: 0, skipped: 5 });
      expect([await count('sessions'), await count('logs')]).toEqual([sessions, logs]);
    });

    it("imports Claude's export, zip or JSON, attachments named", async () => {
      const cyd = await account();
      const { body } = await importing(cyd, claudeZip([claudeConversation]), 'data-2024.zip');
      expect(body.result.conversations).toEqual([expect.objectContaining({ title: 'Rust lifetimes', source: 'claude', status: 'imported', sessions: 1, logs: 2 })]);
      const [session] = await treeOf(cyd.username);
      expect(session!.logs.map((l) => [l.input, l.output.slice(0, 20), l.model])).toEqual([
        ['Explain lifetimes in Rust.\n\n[attachment: main.rs]', 'A lifetime names how', 'claude'],
        ['Show an example.', "```rust\nfn longest<'", 'claude'],
      ]);
      expect(session!.logs[0]!.time).toBe(Date.parse('2024-06-01T10:00:01Z'));
      expect((await importing(cyd, json([claudeConversation]))).body.result).toMatchObject({ imported: 0, skipped: 1 });
    });

    it("keeps a Claude conversation's edits as branches (parent_message_uuid), the shown path first", async () => {
      const ivy = await account();
      const { body } = await importing(ivy, claudeZip([claudeBranched]), 'claude.zip');
      expect(body.result.conversations).toEqual([expect.objectContaining({ title: 'Sorting, edited', status: 'imported', sessions: 2, logs: 3 })]);
      const tree = await treeOf(ivy.username);
      expect(tree.map((s) => [s.parent, s.logs.map((l) => [l.input, l.output])])).toEqual([
        [
          null,
          [
            ['Name a sorting algorithm.', 'Quicksort.'],
            ['Explain it in one line.', 'Partition around a pivot and recurse.'],
          ],
        ],
        [0, [['Explain it.', 'Pick a pivot, partition, recurse on both sides.']]],
      ]);
      // The edit branches after the first answer: what it inherits is the first turn.
      expect(tree[1]!.branch_time).toBe(tree[0]!.logs[0]!.time);
      expect(tree[0]!.logs[0]!.time).toBe(Date.parse('2024-07-01T09:00:01Z'));
    });

    it("round-trips shellchat's JSON into another account: the same logs and tree; again adds nothing", async () => {
      const dee = await account();
      await importing(dee, json([branchy, noSlug, simple(7)]));
      const exported = await exporting(dee, 'all=1&format=json');
      expect(exported.status).toBe(200);
      expect(exported.type).toContain('application/json');
      expect(exported.disposition).toMatch(/^attachment; filename="shellchat-all-\d{4}-\d{2}-\d{2}\.json"$/);
      const file = JSON.parse(exported.text) as { format: string; version: number; conversations: ExportedConversation[] };
      expect(file).toMatchObject({ format: 'shellchat', version: 1 });
      expect(file.conversations).toHaveLength(3);
      expect(file.conversations[0]!.sessions.map((s) => s.logs.length)).toEqual([3, 1, 1]);
      const eve = await account();
      const back = await importing(eve, exported.text, 'shellchat.json');
      expect(back.body.result).toMatchObject({ imported: 3, skipped: 0, refused: 0 });
      const strip = (tree: Tree) => tree.map((s) => ({ ...s, logs: s.logs.map((l) => ({ ...l })) }));
      expect(strip(await treeOf(eve.username))).toEqual(strip(await treeOf(dee.username)));
      expect((await importing(eve, exported.text)).body.result).toMatchObject({ imported: 0, skipped: 3 });
      // Its own export read back into the same account: already there.
      expect((await importing(dee, exported.text)).body.result).toMatchObject({ imported: 0, skipped: 3 });
    });

    it('exports one conversation (the one a session is in) as JSON or Markdown, only one\'s own', async () => {
      const fay = await account();
      const gus = await account();
      await importing(fay, json([branchy]));
      const tree = await server.server.db.db.selectFrom('sessions').select(['id', 'parent_id']).where('user_id', '=', (await server.server.accounts.byUsername(fay.username))!.id).orderBy('id').execute();
      const branch = tree.find((s) => s.parent_id !== null)!;
      const one = await exporting(fay, `session=${branch.id}`);
      expect(one.status).toBe(200);
      const parsed = JSON.parse(one.text) as { conversations: ExportedConversation[] };
      expect(parsed.conversations.map((c) => c.sessions.length)).toEqual([3]);
      const md = await exporting(fay, `session=${branch.id}&format=md`);
      expect(md.type).toContain('text/markdown');
      expect(md.text).toContain('# What is a monad?');
      expect(md.text).toContain('**You:**\n\nCompute 2+2 in Haskell.');
      expect(md.text).toContain(`Branched from session ${tree.find((s) => s.parent_id === null)!.id}`);
      // Someone else's session, and no login.
      expect((await exporting(gus, `session=${branch.id}`)).status).toBe(404);
      expect(JSON.parse((await exporting(gus, 'all=1')).text).conversations).toEqual([]);
      expect((await fetch(`${server.url}/api/archive/export?all=1`)).status).toBe(401);
      expect((await fetch(`${server.url}/api/archive/import`, { method: 'POST', body: '[]' })).status).toBe(401);
    });

    it('writes a batch whole or retries each alone: a conversation the database refuses is refused, nothing of it written, its batch-mates imported', async () => {
      const db = server.server.db.db;
      // The database itself refuses one conversation's logs (a trigger), as a failing write would.
      if (engine === 'sqlite') await sql`CREATE TRIGGER poison BEFORE INSERT ON logs WHEN NEW.input LIKE '%POISON-PILL%' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`.execute(db);
      else if (engine === 'postgres') {
        await sql`CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN IF NEW.input LIKE '%POISON-PILL%' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(db);
        await sql`CREATE TRIGGER poison BEFORE INSERT ON logs FOR EACH ROW EXECUTE FUNCTION poison()`.execute(db);
      } else await sql.raw(`CREATE TRIGGER poison BEFORE INSERT ON logs FOR EACH ROW BEGIN IF NEW.input LIKE '%POISON-PILL%' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'poisoned'; END IF; END`).execute(db);
      try {
        const kim = await account();
        const { body } = await importing(kim, json([simple(41), simple(42, 'POISON-PILL'), simple(43)]));
        expect(body.result.conversations.map((c) => [c.title, c.status, c.reason?.text])).toEqual([
          ['Plain 41', 'imported', undefined],
          ['Plain 42', 'refused', MESSAGES.wrongShape('it could not be written').text],
          ['Plain 43', 'imported', undefined],
        ]);
        // Nothing half-written: the refused one has no session, and is not remembered as imported.
        expect((await treeOf(kim.username)).map((s) => s.logs[0]!.input)).toEqual(['Question number 41. ', 'Question number 43. ']);
        await sql`DROP TRIGGER poison${sql.raw(engine === 'postgres' ? ' ON logs' : '')}`.execute(db);
        expect((await importing(kim, json([simple(41), simple(42, 'POISON-PILL'), simple(43)]))).body.result).toMatchObject({ imported: 1, skipped: 2, refused: 0 });
      } finally {
        await sql`DROP TRIGGER IF EXISTS poison${sql.raw(engine === 'postgres' ? ' ON logs' : '')}`.execute(db);
        if (engine === 'postgres') await sql`DROP FUNCTION IF EXISTS poison()`.execute(db);
      }
    });

    it('refuses a conversation of the wrong shape with its reason and imports the others', async () => {
      const hal = await account();
      const { body } = await importing(hal, json([simple(11), { mapping: 5, id: 'x' }, { title: 'no id', mapping: {} }, 'text', simple(12)]));
      expect(body.result.conversations.map((c) => [c.status, c.reason?.text])).toEqual([
        ['imported', undefined],
        ['refused', MESSAGES.wrongShape('no mapping, chat_messages or sessions').text],
        ['refused', MESSAGES.wrongShape('no id').text],
        ['refused', MESSAGES.wrongShape('not an object').text],
        ['imported', undefined],
      ]);
      expect(body.message).toBe(MESSAGES.summary(2, 0, 3).text);
    });
  });
}
