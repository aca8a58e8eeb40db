// The role commands through the real plugin host, against the real server over HTTP (SQLite):
// every command and message, the user role that wins over a system role of the same name,
// memory reset on use, reset and add, own roles only, and the operator's roles file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import systemRoles from './data/system-roles.json' with { type: 'json' };
import { PROMPT_MAX, ROLE_NAME_MAX } from './common/limits.ts';

const PW = 'hunter2hunter2';
const OLD_SESSION = 1_700_000_000_000;
const OPERATOR_PROMPT = 'You are the operator-defined on-call assistant.';
const CODER_PROMPT = systemRoles.find((r) => r.name === 'coder')!.prompt;

let server: TestServer;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-roles-'));
  const file = path.join(dir, 'operator-roles.json');
  writeFileSync(file, JSON.stringify([{ name: 'on-call', prompt: OPERATOR_PROMPT }]));
  server = await startTestServer('sqlite', { ROLES_FILE: file });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;

/** A tester in an old session with a head marker, so a memory reset is visible. */
const tester = (serverUrl = server.url) =>
  createShellTester({ plugins: ['general', 'user', 'role'], serverUrl, settings: { session: OLD_SESSION, time: OLD_SESSION, head: OLD_SESSION } });

const memoryWasReset = (t: Tester) => {
  expect(t.settings.get<number>('session')).toBeGreaterThan(OLD_SESSION);
  expect(t.settings.get<number>('head')).toBe(0);
};
const memoryKept = (t: Tester) => expect(t.settings.get<number>('session')).toBe(OLD_SESSION);

let seq = 0;
async function signedUp(): Promise<Tester & { username: string }> {
  const username = `roler${++seq}`;
  const t = await tester();
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  t.settings.set('session', OLD_SESSION);
  t.settings.set('head', OLD_SESSION);
  return Object.assign(t, { username });
}

describe('the shipped system roles', () => {
  it('are at least 30 distinct, careful English prompts within the limits', () => {
    expect(systemRoles.length).toBeGreaterThanOrEqual(30);
    expect(new Set(systemRoles.map((r) => r.name)).size).toBe(systemRoles.length);
    for (const r of systemRoles) {
      expect(r.name.length).toBeLessThanOrEqual(ROLE_NAME_MAX);
      expect(r.prompt.length).toBeGreaterThan(200);
      expect(r.prompt.length).toBeLessThanOrEqual(PROMPT_MAX);
    }
    for (const name of ['coder', 'code-reviewer', 'translator', 'shell-expert', 'sql-expert', 'regex-helper', 'linux-admin']) {
      expect(systemRoles.map((r) => r.name)).toContain(name);
    }
  });
});

describe('anonymous visitors', () => {
  it("':role' without an active role: 'No role is set...'", async () => {
    const t = await tester();
    expect((await t.run(':role')).errors).toEqual(['No role is set...']);
  });

  it(':role ls lists the system roles (shipped and the operator\'s) without a user section', async () => {
    const t = await tester();
    const result = await t.run(':role ls');
    expect(result.errors).toEqual([]);
    expect(result.text.startsWith('System roles:\n')).toBe(true);
    expect(result.text).not.toContain('User roles');
    expect(result.text).toContain('\\coder');
    expect(result.text).toContain('\\on-call');
    expect((await t.run(':role list')).text).toBe(result.text);
  });

  it(':role "<name>" shows the role and its prompt; unknown names do not exist', async () => {
    const t = await tester();
    expect((await t.run(':role "coder"')).text).toBe(`Role: coder\nPrompt: ${CODER_PROMPT}`);
    expect((await t.run(':role "on-call"')).text).toBe(`Role: on-call\nPrompt: ${OPERATOR_PROMPT}`);
    expect((await t.run(':role "nope"')).errors).toEqual(['Role "nope" does not exist.']);
  });

  it("names and prompts must be quoted", async () => {
    const t = await tester();
    expect((await t.run(':role coder')).errors).toEqual(['Role name must be quoted with double quotes.']);
    expect((await t.run(':role use coder')).errors).toEqual(['Role name must be quoted with double quotes.']);
    expect(t.settings.get('role')).toBe('');
  });

  it(':role use sets the role and resets memory; :role shows it; :role ls stars it', async () => {
    const t = await tester();
    expect((await t.run(':role use "nope"')).errors).toEqual(['Role "nope" does not exist.']);
    memoryKept(t);
    expect((await t.run(':role use "coder"')).text).toBe('Role set to coder. Memory reset.');
    expect(t.settings.get('role')).toBe('coder');
    memoryWasReset(t);
    expect((await t.run(':role')).text).toBe(`Role: coder\nPrompt: ${CODER_PROMPT}`);
    expect((await t.run(':role ls')).text).toContain('*\\coder');
  });

  it(':role reset clears the role and resets memory', async () => {
    const t = await tester();
    t.settings.set('role', 'coder');
    expect((await t.run(':role reset')).text).toBe('Role reset. Memory reset.');
    expect(t.settings.get('role')).toBe('');
    memoryWasReset(t);
    expect((await t.run(':role')).errors).toEqual(['No role is set...']);
  });

  it("an active role that no longer exists: 'Role \"x\" does not exist.'", async () => {
    const t = await tester();
    t.settings.set('role', 'gone');
    expect((await t.run(':role')).errors).toEqual(['Role "gone" does not exist.']);
  });

  it("add, set and del need a login: 'Please login.'", async () => {
    const t = await tester();
    expect((await t.run(':role add "mine" "a prompt"')).errors).toEqual(['Please login.']);
    expect((await t.run(':role set "mine" "a prompt"')).errors).toEqual(['Please login.']);
    expect((await t.run(':role del "mine"')).errors).toEqual(['Please login.']);
    expect((await t.run(':role delete "mine"')).errors).toEqual(['Please login.']);
    expect(t.settings.get('role')).toBe('');
  });

  it("'You are offline.' when the server cannot be reached; 'No role found.' when its list fails", async () => {
    // Nothing listens there: not 'No role found.', which would say there are none.
    const t = await tester('http://127.0.0.1:9');
    expect((await t.run(':role ls')).errors).toEqual(['You are offline.']);
    // A server that answers, with a failure: the failure is only logged (spec part 7).
    const failing = http.createServer((_, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false,"error":"boom"}'));
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
    try {
      const answered = await tester(`http://127.0.0.1:${(failing.address() as AddressInfo).port}`);
      expect((await answered.run(':role ls')).errors).toEqual(['No role found.']);
    } finally {
      await new Promise((r) => failing.close(r));
    }
  });
});

describe('logged-in users', () => {
  it(':role add adds the role, activates it and resets memory', async () => {
    const t = await signedUp();
    const added = await t.run(':role add "poet" "You answer in rhyme."');
    expect(added.errors).toEqual([]);
    expect(added.text).toBe('Role "poet" added.\nRole set to poet. Memory reset.');
    expect(t.settings.get('role')).toBe('poet');
    memoryWasReset(t);
    expect((await t.run(':role')).text).toBe('Role: poet\nPrompt: You answer in rhyme.');
    const listed = (await t.run(':role ls')).text;
    expect(listed.startsWith('User roles:\n*\\poet\nSystem roles:\n')).toBe(true);
    expect((await t.run(':role add "poet" "again"')).errors).toEqual(['Role "poet" already exists.']);
  });

  it('checks quoting and limits of names and prompts', async () => {
    const t = await signedUp();
    expect((await t.run(':role add poet "p"')).errors).toEqual(['Role name must be quoted with double quotes.']);
    expect((await t.run(':role add "poet" p')).errors).toEqual(['Prompt must be quoted with double quotes.']);
    expect((await t.run(':role set "poet" p')).errors).toEqual(['Prompt must be quoted with double quotes.']);
    expect((await t.run(':role add "" "p"')).errors).toEqual(['Invalid role name.']);
    expect((await t.run(`:role add "${'n'.repeat(ROLE_NAME_MAX + 1)}" "p"`)).errors).toEqual(['Role name must be at most 64 characters.']);
    expect((await t.run(`:role add "long" "${'p'.repeat(PROMPT_MAX + 1)}"`)).errors).toEqual(['Prompt must be at most 8,000 characters.']);
    expect((await t.run(':role add "empty" " "')).errors).toEqual(['Prompt must not be empty.']);
    expect((await t.run(`:role add "${'n'.repeat(ROLE_NAME_MAX)}" "${'p'.repeat(PROMPT_MAX)}"`)).errors).toEqual([]);
    expect(t.settings.get('role')).toBe('n'.repeat(ROLE_NAME_MAX));
  });

  it(':role set changes only the prompt of an own role', async () => {
    const t = await signedUp();
    await t.run(':role add "helper" "first"');
    t.settings.set('session', OLD_SESSION);
    expect((await t.run(':role set "helper" "second"')).text).toBe('Role "helper" updated.');
    memoryKept(t);
    expect((await t.run(':role "helper"')).text).toBe('Role: helper\nPrompt: second');
    // System roles are not the user's to change.
    expect((await t.run(':role set "coder" "hijacked"')).errors).toEqual(['Role "coder" does not exist.']);
    expect((await t.run(':role set "nope" "x"')).errors).toEqual(['Role "nope" does not exist.']);
    expect((await t.run(':role "coder"')).text).toBe(`Role: coder\nPrompt: ${CODER_PROMPT}`);
  });

  it(':role del deletes an own role and clears it when active; never a system role', async () => {
    const t = await signedUp();
    await t.run(':role add "temp" "short-lived"');
    expect(t.settings.get('role')).toBe('temp');
    expect((await t.run(':role del "temp"')).text).toBe('Role "temp" deleted.');
    expect(t.settings.get('role')).toBe('');
    expect((await t.run(':role delete "temp"')).errors).toEqual(['Role "temp" does not exist.']);
    expect((await t.run(':role del "coder"')).errors).toEqual(['Role "coder" does not exist.']);
    expect((await t.run(':role "coder"')).errors).toEqual([]);
  });

  it('a user role wins over a system role of the same name', async () => {
    const t = await signedUp();
    await t.run(':role add "coder" "My own coder prompt."');
    expect((await t.run(':role "coder"')).text).toBe('Role: coder\nPrompt: My own coder prompt.');
    const listed = (await t.run(':role ls')).text;
    // Starred where the name resolves: the user's section, not the system's.
    expect(listed.split('System roles:')[0]).toContain('*\\coder');
    expect(listed.split('System roles:')[1]).toContain('\\coder');
    expect(listed.split('System roles:')[1]).not.toContain('*\\coder');
    // Deleting it brings the system role back.
    await t.run(':role del "coder"');
    expect((await t.run(':role "coder"')).text).toBe(`Role: coder\nPrompt: ${CODER_PROMPT}`);
  });

  it("users see, change and delete only their own roles", async () => {
    const [a, b] = [await signedUp(), await signedUp()];
    await a.run(':role add "private" "only for a"');
    expect((await b.run(':role "private"')).errors).toEqual(['Role "private" does not exist.']);
    expect((await b.run(':role use "private"')).errors).toEqual(['Role "private" does not exist.']);
    expect((await b.run(':role set "private" "changed by b"')).errors).toEqual(['Role "private" does not exist.']);
    expect((await b.run(':role del "private"')).errors).toEqual(['Role "private" does not exist.']);
    expect((await b.run(':role ls')).text).toContain('User roles:\n(none)');
    expect((await a.run(':role "private"')).text).toBe('Role: private\nPrompt: only for a');
    // The same name for b is b's own role.
    expect((await b.run(':role add "private" "b too"')).errors).toEqual([]);
    expect((await a.run(':role "private"')).text).toBe('Role: private\nPrompt: only for a');
  });

  it('logout clears the active role', async () => {
    const t = await signedUp();
    await t.run(':role use "translator"');
    await t.run(':logout');
    expect(t.settings.get('role')).toBe('');
  });
});

describe("in the interface's language", () => {
  it("shows the rules' messages and the server's answers translated, values filled in, the API still English", async () => {
    const t = await createShellTester({ plugins: ['general', 'user', 'role', 'model'], serverUrl: server.url, lang: 'zh-CN' });
    const username = `zhroler${++seq}`;
    // The core server's rule (the `core` namespace), with its fixed value.
    expect((await t.run(`:user add 9${username} ${username}@example.org ${PW}`)).errors).toEqual(['用户名必须以字母开头，最多包含 32 个字母、数字、下划线或连字符。']);
    // The server's answers ('User x added.', 'Logged in as x.').
    expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`用户 ${username} 已添加。`);
    expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`已以 ${username} 的身份登录。`);
    // A role without expiry, in words of the language.
    expect((await t.run(':user')).text).toMatch(/\n角色到期时间 +无限期\n/);
    // A rule checked in the browser, with a fixed value (the limit) and one from the line.
    expect((await t.run(`:role add "${'n'.repeat(ROLE_NAME_MAX + 1)}" "p"`)).errors).toEqual([`角色名称最多 ${ROLE_NAME_MAX} 个字符。`]);
    expect((await t.run(':role "nope"')).errors).toEqual(['角色“nope”不存在。']);
    // A refusal the server decides: a system role is not the user's to change.
    expect((await t.run(':role set "coder" "hijacked"')).errors).toEqual(['角色“coder”不存在。']);
    expect((await t.run(':role add "mine" "p"')).text).toBe('角色“mine”已添加。\n角色已设置为 mine。记忆已重置。');
    // An egress refusal, its reason translated in turn (the reason is a message too).
    expect((await t.run(':model add "mine" "http://127.0.0.1:1/v1" "k"')).errors).toEqual(['已拒绝连接到 127.0.0.1（环回地址）。']);
    expect((await t.run(':model add "mine" "http://[::ffff:127.0.0.1]:1/v1" "k"')).errors).toEqual(['已拒绝连接到 ::ffff:7f00:1（IPv4 映射的环回地址）。']);
    // Text that only resembles a message is left alone: a prompt is shown as written.
    await t.run(':role set "mine" "No role found."');
    expect((await t.run(':role "mine"')).text).toBe('角色：mine\n提示词： No role found.');
    // The API itself answers in English, as the spec quotes it.
    const answer = await fetch(`${server.url}/api/role/${encodeURIComponent('nope')}`);
    expect(await answer.json()).toMatchObject({ success: false, error: 'Role "nope" does not exist.' });
  });
});
