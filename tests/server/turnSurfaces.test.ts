// One turn client (issue 35): the page's chat and the terminal's, each driven from its own entry
// (the page's controller, the CLI runtime), meet the same scripted provider through the real
// server: a streamed answer, a whole one (streaming off), one stopped as it streams, and a
// question after it. They must end each turn in the same session state (session, time, head),
// with the same logs on the server and the same messages sent to the model.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mitt from 'mitt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import appConfig from '../../app.config.ts';
import { cliChat } from '../../src/cli/chat.ts';
import { cliControl } from '../../src/cli/control.ts';
import { openProfile } from '../../src/cli/profile.ts';
import { openRuntime } from '../../src/cli/runtime.ts';
import { createI18n, createMemorySettings, SESSION_ID_MIN, SHELL_SETTINGS, type SettingsStore, type ShellEvents } from '../../src/core/host/index.ts';
import { ShellController } from '../../src/shell/controller.ts';
import { createHost } from '../../src/shell/runtime.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import type { ScriptedReply } from '../fixtures/fakeScript.ts';
import { builtinPlugin, loadLocale } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

/** Both surfaces start in this session, each on a server of its own. */
const SESSION = SESSION_ID_MIN + 4_242_424;

interface Step {
  ask: string;
  reply: ScriptedReply;
  stream: boolean;
  /** Stopped once the first piece of the answer has arrived. */
  stop?: boolean;
}

const SCRIPT: Step[] = [
  { ask: 'What is first?', reply: { text: 'The **first** answer, streamed.' }, stream: true },
  { ask: 'And whole?', reply: { text: 'A whole answer, at once.' }, stream: false },
  { ask: 'Stop me', reply: { chunks: ['Half of it', ' and never', ' the rest'], delayMs: 3_000 }, stream: true, stop: true },
  { ask: 'What follows?', reply: { text: 'This follows the stopped one.' }, stream: true },
];

/** One client: how it asks, and where it keeps its settings and talks to the server. */
interface Surface {
  settings: SettingsStore;
  /** Asks, and resolves once the turn has ended; `stopWhenAnswering` stops it at its first text. */
  ask(text: string, stopWhenAnswering: boolean): Promise<void>;
  fetch: typeof fetch;
  close(): void;
}

let fake: FakeOpenAI;
const servers: TestServer[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await fake?.close();
});

async function server(): Promise<TestServer> {
  const started = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
  servers.push(started);
  return started;
}

/** fetch as a page at `origin` has it: paths resolve against the origin, cookies are kept. */
function pageFetch(origin: string): typeof fetch {
  const real = globalThis.fetch;
  const cookies = new Map<string, string>();
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' && input.startsWith('/') ? `${origin}${input}` : input;
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await real(url, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0]!.split('=');
      if (value) cookies.set(name!.trim(), value.trim());
      else cookies.delete(name!.trim());
    }
    return response;
  }) as typeof fetch;
}

const until = async (ready: () => boolean) => {
  for (const deadline = Date.now() + 10_000; !ready(); ) {
    if (Date.now() > deadline) throw new Error('waited 10 s');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The page: its controller, host and lazily loaded chat, as boot.ts puts them together. */
async function page(origin: string): Promise<Surface> {
  const fetch = pageFetch(origin);
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('location', new URL(origin));
  const plugins = await Promise.all(appConfig.plugins.map((id) => builtinPlugin(id)));
  const settings = createMemorySettings([...SHELL_SETTINGS, ...plugins.flatMap((p) => p.manifest.settings ?? [])], { session: SESSION });
  const i18n = await createI18n({ lang: 'en-US', namespaces: ['shell', 'core'], load: loadLocale });
  const events = mitt<ShellEvents>();
  const controller = new ShellController({
    settings,
    events,
    t: i18n.tFor('shell'),
    loadHost: async (c) => createHost({ plugins, settings, i18n, events, controller: c }),
  });
  return {
    settings,
    fetch,
    async ask(text, stopWhenAnswering) {
      controller.setInput(text);
      const submitted = controller.submit();
      if (stopWhenAnswering) {
        await until(() => controller.state.get().outputs.some((o) => o.kind === 'markdown' && o.streaming === true));
        controller.stop();
      }
      await submitted;
    },
    close: () => vi.unstubAllGlobals(),
  };
}

/** The terminal: its runtime from a profile, the answer written to a sink. */
async function terminal(origin: string): Promise<Surface> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-turn-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ session: SESSION }));
  const env = { ...process.env, SHELLCHAT_CONFIG_DIR: dir };
  let written = '';
  const runtime = await openRuntime({
    server: origin,
    profile: openProfile(env),
    env,
    control: cliControl(env),
    chat: cliChat({ write: (text) => void (written += text), end: async () => undefined }, () => ''),
  });
  await runtime.ready;
  return {
    settings: runtime.settings,
    fetch: runtime.api.fetch,
    async ask(text, stopWhenAnswering) {
      written = '';
      const abort = new AbortController();
      const ran = runtime.host.run(text, abort.signal);
      if (stopWhenAnswering) {
        await until(() => written.length > 0);
        abort.abort();
      }
      await ran;
    },
    close: () => undefined,
  };
}

interface Log {
  time: number;
  input: string;
  output: string;
}

/** Runs the script on one surface: its state after each turn, the session's logs, what the model was sent. */
async function play(open: (origin: string) => Promise<Surface>) {
  const t = await server();
  const surface = await open(t.url);
  const logs = async (): Promise<Log[]> => {
    const response = await surface.fetch(`${t.url}/api/log/list?session=${surface.settings.get<number>('session')}`);
    return ((await response.json()) as { result: { logs: Log[] } }).result.logs;
  };
  const states: { session: number; time: number; head: number }[] = [];
  const sent = fake.requests.length;
  try {
    for (const [i, step] of SCRIPT.entries()) {
      surface.settings.set('useStream', step.stream);
      fake.reply(step.reply);
      await surface.ask(step.ask, step.stop === true);
      // A stopped answer is kept by the server once its stream is closed: the next question follows it.
      await until(() => fake.openStreams() === 0);
      await expect.poll(async () => (await logs()).length, { timeout: 10_000 }).toBe(i + 1);
      const { settings } = surface;
      states.push({ session: settings.get<number>('session'), time: settings.get<number>('time'), head: settings.get<number>('head') });
    }
  } finally {
    surface.close();
  }
  const kept = await logs();
  // Times differ between the two servers: each is said as the log it names (its place in the session), or 0.
  const place = (time: number) => (time ? kept.findIndex((log) => log.time === time) : 'latest');
  return {
    states: states.map((s) => ({ session: s.session, time: place(s.time), head: place(s.head) })),
    logs: kept.map((log) => ({ input: log.input, output: log.output })),
    messages: fake.requests.slice(sent).map((r) => (r.body.messages as { role: string; content: unknown }[]).filter((m) => m.role !== 'system')),
  };
}

describe('one turn, two surfaces', () => {
  it('ends each turn of one scripted stream in the same session state in the page and in the terminal', async () => {
    const inPage = await play(page);
    const inTerminal = await play(terminal);
    // What the script must give, whoever plays it: the stopped answer is kept, and the next
    // question follows it (time 0: the latest), not the log before it.
    expect(inPage.states).toEqual([
      { session: SESSION, time: 0, head: 0 },
      { session: SESSION, time: 1, head: 1 },
      { session: SESSION, time: 'latest', head: 1 },
      { session: SESSION, time: 3, head: 3 },
    ]);
    expect(inPage.logs.map((log) => log.input)).toEqual(SCRIPT.map((step) => step.ask));
    expect(inPage.logs[2]!.output).toBe('Half of it');
    expect(JSON.stringify(inPage.messages[3])).toContain('Half of it');
    expect(inTerminal).toEqual(inPage);
  }, 90_000);
});
