// The session commands and navigation through the real plugin host, against the real server
// over HTTP (SQLite) with real logs: each tester chats by POSTing the browser's own request
// (buildRequest from the shell) to /api/generate through its own API client, so the chat and
// the commands share one cookie jar (login and device cookies) exactly as in a browser; the
// fake OpenAI-compatible provider answers "You said: <input>".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformRef, type GenerateResult, type Output } from '../../src/core/host/index.ts';
import { completeLine } from '../../src/core/host/tabCompletion.ts';
import { buildRequest } from '../../src/core/api/generateRequest.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'session-password-1';
const MODEL = 'gpt-4o-mini';

let server: TestServer;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer('sqlite', { MODEL, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
  for (const name of ['ada', 'bob', 'cyd']) await server.server.accounts.create({ username: name, email: `${name}@example.org`, password: PW });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;

// Every browser starts its own session at page load: a millisecond timestamp of the recent past.
let lastSession = Date.now() - 100_000_000;
const newSession = () => (lastSession += 1_000);

async function tester(options: Parameters<typeof createShellTester>[0] = {}): Promise<Tester> {
  const session = newSession();
  const t = await createShellTester({ serverUrl: server.url, settings: { session, time: session }, ...options });
  // The plugin starts with the shell ('startup'), to hear navigation events.
  await t.host.activateStartup();
  return t;
}

async function loggedIn(username: string, password = username === 'root' ? 'root-password-1' : PW): Promise<Tester> {
  const t = await tester();
  expect((await t.run(`:login ${username} ${password}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

/** One chat turn as the browser sends it; afterwards session, time and head follow the answer. */
async function chat(t: Tester, input: string): Promise<{ session: number; time: number }> {
  const api = t.host.services.get(PlatformRef).api;
  const answer = await api.post<GenerateResult>('/api/generate', buildRequest(t.settings, { text: input, images: [], files: [] }));
  const { session, time } = answer.result!.info;
  t.settings.set('session', session);
  t.settings.set('time', time);
  t.settings.set('head', time);
  return { session, time };
}

/** Emits a navigation event (a key or a swipe) and waits for what the plugin shows. */
function navigate(t: Tester, target: 'session' | 'log', direction: 'previous' | 'next'): Promise<Output[]> {
  return new Promise((resolve) => {
    const seen = (outputs: Output[]) => {
      t.events.off('output', seen);
      resolve(outputs);
    };
    t.events.on('output', seen);
    t.events.emit('navigate', { target, direction });
  });
}

const errors = (outputs: Output[]) => outputs.flatMap((o) => (o.kind === 'error' ? [o.text] : []));
/** The lines said under the log in view, which stays (nothing further that way). */
const notices = (outputs: Output[]) => outputs.flatMap((o) => (o.kind === 'effect' && o.effect.type === 'notice' ? [o.effect.text] : []));
const tables = (outputs: Output[]) => outputs.flatMap((o) => (o.kind === 'table' ? [o] : []));
const resultEffect = (outputs: Output[]) => outputs.flatMap((o) => (o.kind === 'effect' && o.effect.type === 'result' ? [o.effect] : []))[0];

describe('messages of spec parts 5 and 8', () => {
  it(':session attach checks the id: required, a number, inside the range', async () => {
    const t = await tester();
    expect((await t.run(':session attach')).errors).toEqual(['Session is required.']);
    expect((await t.run(':attach')).errors).toEqual(['Session is required.']);
    for (const bad of ['abc', '12e5', '-5', '1.5']) expect((await t.run(`:attach ${bad}`)).errors, bad).toEqual(['Session must be a number.']);
    for (const bad of ['123', '1669766400000', '2016921600000', '99999999999999']) {
      expect((await t.run(`:session attach ${bad}`)).errors, bad).toEqual(['Time traveler detected.']);
    }
    expect((await t.run(':sa 1669766400001')).errors).toEqual(['No session found.']);
    expect((await t.run(':session attach 1 2')).errors).toEqual(['Usage: :session attach <session_id>']);
  });

  it("answers 'Error attaching session. Please try again later.' when the server cannot be reached", async () => {
    const t = await createShellTester({ serverUrl: 'http://127.0.0.1:9' });
    expect((await t.run(':attach 1800000000000')).errors).toEqual(['Error attaching session. Please try again later.']);
    expect(t.settings.get('session')).toBe(0);
  });

  it("'No session attached.', 'No session found.' and 'No log found.' for a session with nothing saved", async () => {
    expect((await (await createShellTester({ serverUrl: server.url })).run(':session')).errors).toEqual(['No session attached.']);
    const t = await tester();
    expect((await t.run(':session')).errors).toEqual(['No session found.']);
    expect((await t.run(':log')).errors).toEqual(['No log found.']);
    expect((await t.run(':session share')).errors).toEqual(['No session found.']);
  });

  it(':ls needs a login; a user without sessions is told so', async () => {
    const anonymous = await tester();
    for (const line of [':ls', ':session ls', ':session list']) expect((await anonymous.run(line)).errors, line).toEqual(['Please login.']);
    expect((await (await loggedIn('cyd')).run(':ls')).errors).toEqual(['No session found.']);
  });
});

describe('attach, preview, :session, :log', () => {
  it('attaches a session from another browser: sets session, time and head, and previews the logs cut at 150 characters', async () => {
    const first = await loggedIn('ada');
    const long = `${'a'.repeat(160)} end`;
    const one = await chat(first, 'What is a shell?');
    const two = await chat(first, long);
    expect(two.session).toBe(one.session);

    const t = await loggedIn('ada');
    expect(t.settings.get('session')).not.toBe(one.session);
    const { outputs, errors: errs } = await t.run(`:session attach ${one.session}`);
    expect(errs).toEqual([]);
    expect(outputs[0]).toEqual({ kind: 'text', text: `Session ${one.session} attached.` });
    const [preview] = tables(outputs);
    expect(preview!.columns).toEqual(['Time', 'Input', 'Output']);
    expect(preview!.rows.map((r) => r.slice(1))).toEqual([
      ['What is a shell?', 'You said: What is a shell?'],
      [`${'a'.repeat(150)}...`, `You said: ${'a'.repeat(140)}...`],
    ]);
    expect({ session: t.settings.get('session'), time: t.settings.get('time'), head: t.settings.get('head') }).toEqual({ session: one.session, time: two.time, head: two.time });
    // The model-info line of the latest log, so Ctrl/Cmd-click can share right away.
    expect(resultEffect(outputs)).toEqual({ type: 'result', previews: [], info: { model: MODEL, raw: `You said: ${long}`, session: one.session } });
    expect((await t.run(`:attach ${one.session}`)).errors).toEqual([]);
  });

  it(':session shows the current session with its log count and preview; :s is its alias', async () => {
    const t = await loggedIn('ada');
    const { session } = await chat(t, 'First of two');
    await chat(t, 'Second of two');
    for (const line of [':session', ':s']) {
      const { outputs, errors: errs } = await t.run(line);
      expect(errs, line).toEqual([]);
      const [info, preview] = tables(outputs);
      expect(Object.fromEntries(info!.rows)).toMatchObject({ Session: String(session), Creator: 'ada', Parent: '-', Logs: '2', Shared: 'no' });
      expect(preview!.rows.map((r) => r[1])).toEqual(['First of two', 'Second of two']);
    }
  });

  it(':log lists the logs of the current session, inherited ones included', async () => {
    const t = await loggedIn('ada');
    const root = await chat(t, 'Trunk one');
    await chat(t, 'Trunk two');
    // Back to the first log, then send: a branch that inherits "Trunk one" only.
    expect(errors(await navigate(t, 'log', 'previous'))).toEqual([]);
    expect(t.settings.get('time')).toBe(root.time);
    const branch = await chat(t, 'Branch two');
    expect(branch.session).not.toBe(root.session);
    for (const line of [':log', ':l']) {
      const [list] = tables((await t.run(line)).outputs);
      expect(list!.rows.map((r) => r[1]), line).toEqual(['Trunk one', 'Branch two']);
    }
    const [info] = tables((await t.run(':session')).outputs);
    expect(Object.fromEntries(info!.rows)).toMatchObject({ Session: String(branch.session), Parent: String(root.session), Logs: '1' });
  });
});

describe(':session ls', () => {
  it('root lists everybody\'s newest sessions with the user; others only their own', async () => {
    const bob = await loggedIn('bob');
    const bobs = await chat(bob, 'Bob asks something');
    const ada = await loggedIn('ada');
    const adas = await chat(ada, 'Ada asks something');

    const root = await loggedIn('root');
    const all = tables((await root.run(':ls')).outputs)[0]!;
    expect(all.columns).toEqual(['Session', 'User', 'Input', 'Logs']);
    expect(all.rows).toContainEqual([String(bobs.session), 'bob', 'Bob asks something', '1']);
    expect(all.rows).toContainEqual([String(adas.session), 'ada', 'Ada asks something', '1']);

    for (const line of [':ls', ':session ls', ':session list']) {
      const own = tables((await bob.run(line)).outputs)[0]!;
      expect(own.columns, line).toEqual(['Session', 'Input', 'Logs']);
      // The current session is starred.
      expect(own.rows, line).toEqual([[`*${bobs.session}`, 'Bob asks something', '1']]);
    }
    const adaRows = tables((await ada.run(':ls')).outputs)[0]!.rows;
    expect(adaRows.map((r) => r[0])).toContain(`*${adas.session}`);
    expect(adaRows.map((r) => r[1])).not.toContain('Bob asks something');
  });

  it('Tab after :session attach offers the ids of one\'s own sessions, newest first; none to an anonymous visitor', async () => {
    const complete = (t: Tester, line: string) =>
      completeLine(line, t.host.registry, { settingKeys: () => [], provider: (source, pluginId) => t.host.completionProvider(source, pluginId) });
    await server.server.accounts.create({ username: 'cai', email: 'cai@example.org', password: PW });
    const cai = await loggedIn('cai');
    const first = await chat(cai, 'First of Cai');
    await cai.run(':reset');
    const second = await chat(cai, 'Second of Cai');
    await chat(await loggedIn('bob'), 'Not Cai');
    for (const line of [':session attach ', ':attach ']) {
      const { candidates } = await complete(cai, line);
      expect(candidates, line).toEqual([String(second.session), String(first.session)]);
    }
    // Narrowed by what is typed.
    expect((await complete(cai, `:session attach ${String(first.session).slice(0, 12)}`)).candidates).toContain(String(first.session));
    expect((await complete(await tester(), ':session attach ')).candidates).toEqual([]);
  });
});

describe('sharing and privacy', () => {
  it('another user cannot attach an unshared session; can after :session share; their send branches into their own session', async () => {
    const ada = await loggedIn('ada');
    const mine = await chat(ada, 'A private thought');
    const bob = await loggedIn('bob');
    const bobsOwn = bob.settings.get<number>('session');
    expect((await bob.run(`:attach ${mine.session}`)).errors).toEqual(['No session found.']);
    expect(bob.settings.get('session')).toBe(bobsOwn);
    expect((await (await tester()).run(`:attach ${mine.session}`)).errors).toEqual(['No session found.']);

    expect((await ada.run(':session share')).text).toBe(`Session shared. Anyone can attach it with :session attach ${mine.session}`);
    const attached = await bob.run(`:attach ${mine.session}`);
    expect(attached.errors).toEqual([]);
    expect(tables(attached.outputs)[0]!.rows.map((r) => r[1])).toEqual(['A private thought']);
    expect(bob.settings.get('session')).toBe(mine.session);
    // Bob reads it, but it stays Ada's.
    expect((await bob.run(':session share')).errors).toEqual(['You can only share your own sessions.']);
    expect(tables((await bob.run(':log')).outputs)[0]!.rows.map((r) => r[1])).toEqual(['A private thought']);

    const reply = await chat(bob, 'Bob replies');
    expect(reply.session).not.toBe(mine.session);
    expect(tables((await bob.run(':log')).outputs)[0]!.rows.map((r) => r[1])).toEqual(['A private thought', 'Bob replies']);
    // Ada's session is untouched, and Bob's branch is not hers to read.
    expect(Object.fromEntries(tables((await ada.run(':session')).outputs)[0]!.rows)).toMatchObject({ Logs: '1', Shared: 'yes' });
    expect((await ada.run(`:attach ${reply.session}`)).errors).toEqual(['No session found.']);
    // Root reads everything.
    expect((await (await loggedIn('root')).run(`:attach ${reply.session}`)).errors).toEqual([]);
  });

  it('an anonymous visitor reads and shares its own sessions through the device cookie', async () => {
    const visitor = await tester();
    const { session } = await chat(visitor, 'Anonymous hello');
    expect((await visitor.run(':session')).errors).toEqual([]);
    expect((await visitor.run(':log')).errors).toEqual([]);
    const other = await tester();
    expect((await other.run(`:attach ${session}`)).errors).toEqual(['No session found.']);
    expect((await visitor.run(':session share')).errors).toEqual([]);
    expect((await other.run(`:attach ${session}`)).errors).toEqual([]);
  });
});

describe('navigation (keys and swipes)', () => {
  it('Left and Right walk the logs: input as text, output as markdown, the model-info line and previews', async () => {
    const t = await loggedIn('ada');
    const one = await chat(t, 'Log one');
    const two = await chat(t, 'Log two');
    // A log with an image, as a local model call saves it: an upload of this server's (issue
    // 34: another host's image is dropped), whatever host name its URL was written with.
    const api = t.host.services.get(PlatformRef).api;
    const path = '/api/file/123e4567-e89b-42d3-a456-426614174000/cat.png';
    const image = `${server.url}${path}`;
    const three = (
      await api.post<{ time: number }>('/api/log/add', { session: one.session, input: 'Log three', output: 'A **cat**', model: 'local-model', images: [`http://localhost:1${path}`, 'https://example.org/cat.png'] })
    ).result!;
    t.settings.set('time', three.time);
    t.settings.set('head', three.time);

    const back = await navigate(t, 'log', 'previous');
    expect(back.slice(0, 2)).toEqual([
      { kind: 'text', text: 'Log two' },
      { kind: 'markdown', text: 'You said: Log two' },
    ]);
    expect(resultEffect(back)).toEqual({ type: 'result', previews: [], info: { model: MODEL, raw: 'You said: Log two', session: one.session } });
    expect(t.settings.get('time')).toBe(two.time);
    expect((await navigate(t, 'log', 'previous'))[0]).toEqual({ kind: 'text', text: 'Log one' });
    expect(t.settings.get('time')).toBe(one.time);
    expect(notices(await navigate(t, 'log', 'previous'))).toEqual(['No log found.']);
    expect(t.settings.get('time')).toBe(one.time);

    await navigate(t, 'log', 'next');
    const forward = await navigate(t, 'log', 'next');
    expect(forward.slice(0, 2)).toEqual([
      { kind: 'text', text: 'Log three' },
      { kind: 'markdown', text: 'A **cat**' },
    ]);
    expect(resultEffect(forward)).toEqual({ type: 'result', previews: [image], info: { model: 'local-model', raw: 'A **cat**', session: one.session } });
    expect(notices(await navigate(t, 'log', 'next'))).toEqual(['No log found.']);
    expect(t.settings.get('time')).toBe(three.time);
    expect(t.settings.get('head')).toBe(three.time);
  });

  it('sending while looking at an older log branches, keeping the older logs as memory', async () => {
    const t = await loggedIn('ada');
    const one = await chat(t, 'Branch base');
    await chat(t, 'Abandoned path');
    await navigate(t, 'log', 'previous');
    const branch = await chat(t, 'New path');
    expect(branch.session).not.toBe(one.session);
    const users = (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['Branch base', 'New path']);
    // From the branch, Left reaches the inherited log, never the abandoned one.
    expect((await navigate(t, 'log', 'previous'))[0]).toEqual({ kind: 'text', text: 'Branch base' });
    expect(notices(await navigate(t, 'log', 'previous'))).toEqual(['No log found.']);
    expect((await navigate(t, 'log', 'next'))[0]).toEqual({ kind: 'text', text: 'New path' });
  });

  it('Up and Down attach the previous and next of the user\'s own sessions; root walks everybody\'s', async () => {
    // A fresh user, so that the walk is predictable.
    await server.server.accounts.create({ username: 'dee', email: 'dee@example.org', password: PW });
    const t = await loggedIn('dee');
    const first = await chat(t, 'Dee first session');
    t.settings.set('session', newSession());
    const second = await chat(t, 'Dee second session');
    t.settings.set('session', newSession());
    await chat(t, 'Dee third session');

    const up = await navigate(t, 'session', 'previous');
    expect(up[0]).toEqual({ kind: 'text', text: `Session ${second.session} attached.` });
    expect(tables(up)[0]!.rows.map((r) => r[1])).toEqual(['Dee second session']);
    expect({ session: t.settings.get('session'), time: t.settings.get('time'), head: t.settings.get('head') }).toEqual({ session: second.session, time: second.time, head: second.time });
    expect((await navigate(t, 'session', 'previous'))[0]).toEqual({ kind: 'text', text: `Session ${first.session} attached.` });
    expect(errors(await navigate(t, 'session', 'previous'))).toEqual(['No previous session.']);
    expect(t.settings.get('session')).toBe(first.session);
    await navigate(t, 'session', 'next');
    await navigate(t, 'session', 'next');
    expect(errors(await navigate(t, 'session', 'next'))).toEqual(['No next session.']);

    // Root's walk passes through other users' sessions.
    const root = await loggedIn('root');
    root.settings.set('session', second.session + 1);
    expect((await navigate(root, 'session', 'previous'))[0]).toEqual({ kind: 'text', text: `Session ${second.session} attached.` });
  });

  it('keys pressed quickly are handled in order', async () => {
    const t = await loggedIn('ada');
    const one = await chat(t, 'Quick one');
    await chat(t, 'Quick two');
    await chat(t, 'Quick three');
    const shown: Output[][] = [];
    t.events.on('output', (o) => shown.push(o));
    t.events.emit('navigate', { target: 'log', direction: 'previous' });
    t.events.emit('navigate', { target: 'log', direction: 'previous' });
    await expect.poll(() => shown.length).toBe(2);
    expect(shown.map((o) => o[0])).toEqual([
      { kind: 'text', text: 'Quick two' },
      { kind: 'text', text: 'Quick one' },
    ]);
    expect(t.settings.get('time')).toBe(one.time);
  });
});
