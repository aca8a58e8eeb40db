// The model commands through the real plugin host, against the real server over HTTP (SQLite)
// and real-wire fake providers: the lists and their stars, use/unuse/reset, the user's own
// models (validation, masking, ownership), the local model server (Ollama) in the commands and
// in a browser-side chat turn, and the one rule that matters most: a user model's base URL
// receives the user's key, never a system key, and only when the egress policy allows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent, PublicModel } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/shell/chat/client.ts';
import { localGeneration, toChatMessages } from '../../src/shell/chat/local.ts';
import { startFakeOllama, type FakeOllama } from '../../tests/fixtures/fakeOllama.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { cookieFetch, createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'hunter2hunter2';
const SYSTEM_KEY = 'sk-system-key-0123456789';
const SYSTEM_KEY_2 = 'sk-system-two-0123456789';
const USER_KEY = 'sk-user-secret-key-ABCDEFGH';
const SESSION = 1_800_000_000_000;
/** A port nothing listens on: the local model server is down. */
const CLOSED = 'http://127.0.0.1:9';

let system: FakeOpenAI;
let userProvider: FakeOpenAI;
let ollama: FakeOllama;
let server: TestServer;
/** The same configuration without EGRESS_ALLOW_HOSTS. */
let strict: TestServer;

beforeAll(async () => {
  [system, userProvider, ollama] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOllama()]);
  const env = {
    MODEL: 'gpt-4o-mini',
    OPENAI_BASE_URL: system.url,
    OPENAI_API_KEY: SYSTEM_KEY,
    MODELS: JSON.stringify([{ name: 'second', base_url: system.url, api_key: SYSTEM_KEY_2, model: 'gpt-4o' }]),
  };
  [server, strict] = await Promise.all([
    startTestServer('sqlite', { ...env, EGRESS_ALLOW_HOSTS: new URL(userProvider.url).host }),
    startTestServer('sqlite', env),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), strict?.close(), system?.close(), userProvider?.close(), ollama?.close()]);
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;

const tester = (options: { ollamaUrl?: string; serverUrl?: string; settings?: Record<string, unknown> } = {}) =>
  createShellTester({
    plugins: ['general', 'user', 'model'],
    serverUrl: options.serverUrl ?? server.url,
    systemInfo: { ollama_url: options.ollamaUrl ?? ollama.url },
    settings: options.settings,
  });

let seq = 0;
async function signedUp(options: Parameters<typeof tester>[0] = {}, target = server): Promise<Tester & { username: string }> {
  const username = `modeler${++seq}`;
  const t = await tester({ ...options, serverUrl: target.url });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return Object.assign(t, { username });
}

/** fetch that carries a tester's cookies: the same browser making a chat request. */
const browserFetch = (t: Tester): typeof fetch =>
  ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', [...t.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    return fetch(input, { ...init, headers });
  }) as typeof fetch;

async function chat(t: Tester, target: TestServer, session: number): Promise<GenerationEvent[]> {
  const events: GenerationEvent[] = [];
  await streamGeneration({ session, user_input: 'hello', model: t.settings.get<string>('model') }, (e) => events.push(e), {
    signal: new AbortController().signal,
    baseUrl: target.url,
    fetch: browserFetch(t),
  });
  return events;
}

const answerText = (events: GenerationEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
const lastJson = (outputs: { kind: string }[]) => (outputs.filter((o) => o.kind === 'json').at(-1) as { value: PublicModel } | undefined)?.value;

describe('anonymous visitors (model read)', () => {
  it(':model ls lists the four sections, starring the default system model', async () => {
    const t = await tester();
    const result = await t.run(':model ls');
    expect(result.errors).toEqual([]);
    expect(result.text).toBe(
      ['User models:\n(none)', 'Group models:\n(none)', 'System models:\n*\\gpt-4o-mini \\second', 'Local models:\n\\llama3.2 \\qwen2.5:0.5b'].join('\n'),
    );
    expect((await t.run(':model list')).text).toBe(result.text);
  });

  it(':model shows the default model, or the quoted one; never a key', async () => {
    const t = await tester();
    const shown = await t.run(':model');
    expect(shown.text).toContain('No model is chosen; the default model is in use:');
    expect(lastJson(shown.outputs)).toMatchObject({ name: 'gpt-4o-mini', scope: 'system', base_url: system.url });
    expect(lastJson(shown.outputs)).not.toHaveProperty('api_key');
    expect(lastJson((await t.run(':model "second"')).outputs)).toMatchObject({ name: 'second', model: 'gpt-4o' });
    expect(lastJson((await t.run(':m "llama3.2"')).outputs)).toMatchObject({ name: 'llama3.2', scope: 'local', base_url: ollama.url });
    expect((await t.run(':model "nope"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':model second')).errors).toEqual(['Name must be quoted with double quotes.']);
    for (const line of [':model', ':model "second"', ':model ls']) {
      const text = (await t.run(line)).text;
      expect(text).not.toContain(SYSTEM_KEY);
      expect(text).not.toContain(SYSTEM_KEY_2);
    }
  });

  it("'Please login.' for use; 'No model is set...' only without an active or a default model", async () => {
    const t = await tester();
    expect((await t.run(':model use "second"')).errors).toEqual(['Please login.']);
    expect(t.settings.get('model')).toBe('');
    expect((await t.run(':model unuse')).errors).toEqual(['No model is set...']);
    // No server (so no default model) and no local model server.
    const bare = await createShellTester({ plugins: ['model'], systemInfo: { ollama_url: CLOSED } });
    expect((await bare.run(':model')).errors).toEqual(['No model is set...']);
    expect((await bare.run(':model ls')).errors).toEqual(['No available model found.']);
  });
});

describe('use, unuse, reset', () => {
  it('uses a system model, then a local one, starring each; unuse goes back to the default', async () => {
    const t = await signedUp();
    expect((await t.run(':model use "second"')).text).toBe('Model set to second.');
    expect(t.settings.get('model')).toBe('second');
    expect(t.settings.get('baseUrl')).toBe(system.url);
    expect((await t.run(':model ls')).text).toContain('System models:\n\\gpt-4o-mini *\\second');
    expect(lastJson((await t.run(':model')).outputs)).toMatchObject({ name: 'second' });

    expect((await t.run(':model use "llama3.2"')).text).toBe('Model set to llama3.2.');
    expect(t.settings.get('baseUrl')).toBe(ollama.url);
    const listed = (await t.run(':model ls')).text;
    expect(listed).toContain('System models:\n\\gpt-4o-mini \\second');
    expect(listed).toContain('Local models:\n*\\llama3.2 \\qwen2.5:0.5b');
    expect(lastJson((await t.run(':model')).outputs)).toMatchObject({ name: 'llama3.2', scope: 'local' });

    expect((await t.run(':model unuse')).text).toBe('Model unset. The default model gpt-4o-mini is in use.');
    expect([t.settings.get('model'), t.settings.get('baseUrl')]).toEqual(['', '']);
    expect((await t.run(':model unuse')).errors).toEqual(['No model is set...']);
    expect((await t.run(':model use "nope"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':model use nope')).errors).toEqual(['Name must be quoted with double quotes.']);
  });

  it(':model reset goes back to the default model and starts a new session', async () => {
    const old = 1_700_000_000_000;
    const t = await signedUp({ settings: { session: old, time: old, head: old } });
    await t.run(':model use "second"');
    const result = await t.run(':model reset');
    expect(result.text).toBe('Model reset to the default; a new session has started.');
    expect([t.settings.get('model'), t.settings.get('baseUrl')]).toEqual(['', '']);
    expect(t.settings.get<number>('session')).toBeGreaterThan(old);
    expect(t.settings.get('head')).toBe(0);
  });

  it('the active model follows the user to the server settings', async () => {
    const t = await signedUp();
    await t.run(':model use "second"');
    await expect
      .poll(async () => {
        const api = server.client();
        await api.post('/api/user/login', { username: t.username, password: PW });
        return ((await api.get<{ settings: { model: string } }>('/api/user/info')).result!).settings.model;
      }, { timeout: 3000 })
      .toBe('second');
  });

  it('with the local model server down: an empty local list, and the Ollama errors for a local model', async () => {
    const t = await signedUp({ ollamaUrl: CLOSED });
    const listed = await t.run(':model ls');
    expect(listed.errors).toEqual([]);
    expect(listed.text).toContain('Local models:\n(none)');
    expect((await t.run(':model use "llama3.2"')).errors).toEqual(['Model not found.']);
    t.settings.set('model', 'llama3.2');
    t.settings.set('baseUrl', CLOSED);
    expect((await t.run(':model')).errors).toEqual(['Cannot connect to Ollama server.']);
    const up = await tester({ settings: { model: 'gone', baseUrl: ollama.url } });
    expect((await up.run(':model')).errors).toEqual(['Ollama model not found.']);
  });
});

describe("a user's own models", () => {
  it('adds, changes and deletes a model, validating each value and masking the key', async () => {
    const t = await signedUp();
    const added = await t.run(`:model add "mine" "${userProvider.url}" "${USER_KEY}"`);
    expect(added.errors).toEqual([]);
    expect(added.text).toContain('Model "mine" added.');
    expect(added.text).not.toContain(USER_KEY);
    expect(lastJson(added.outputs)).toMatchObject({ name: 'mine', scope: 'user', provider: 'openai-compatible', model: 'mine', base_url: userProvider.url, api_key: 'sk-**********************GH' });
    // The line carried a key: never kept in the history.
    expect(JSON.stringify(t.settings.get('history'))).not.toContain(USER_KEY);

    const refusals: [string, string][] = [
      [`:model add "mine" "${userProvider.url}" "k"`, 'Model "mine" already exists.'],
      [`:model add "MINE" "${userProvider.url}"`, 'Model "MINE" already exists.'],
      [':model add "bad name!" "https://8.8.8.8/v1"', 'Invalid model name. A model name is 1 to 64 letters, digits and . _ : / @ + - characters, starting with a letter or digit.'],
      [':model add "x" "ftp://8.8.8.8/v1"', 'URL must start with http or https.'],
      [':model add "x" "http://10.1.2.3/v1"', 'Refused to connect to 10.1.2.3 (private address).'],
      [':model add "x" "http://169.254.169.254/latest"', 'Refused to connect to 169.254.169.254 (cloud metadata address).'],
      [':model add "x" https://8.8.8.8/v1', 'Setting value must be quoted with double quotes.'],
      [':model add x "https://8.8.8.8/v1"', 'Name must be quoted with double quotes.'],
      [':model set "mine" provider "acme"', 'Invalid provider. Valid providers are: openai-compatible, openai, anthropic, google, ollama.'],
      [':model set "mine" model "two words"', 'Invalid model id. A model id is 1 to 128 characters without spaces.'],
      [':model set "mine" base_url "http://127.0.0.2:1/v1"', 'Refused to connect to 127.0.0.2 (loopback address).'],
      [':model set "mine" base_url "file:///etc/passwd"', 'URL must start with http or https.'],
      [':model set "mine" price_input "cheap"', 'Invalid value. Value must be a number.'],
      [':model set "mine" price_output "-1"', 'Invalid value. A price cannot be negative.'],
      [':model set "mine" vision "maybe"', 'Invalid value. Value must be true or false.'],
      [':model set "mine" context_window "0"', 'Invalid value. The context window is a whole number of tokens above 0, or "" to clear it.'],
      [':model set "mine" colour "red"', 'Unknown key. Key must be one of: provider, model, base_url, api_key, price_input, price_output, vision, tools, image, reasoning, context_window, shared'],
      [':model set "mine" vision true', 'Setting value must be quoted with double quotes.'],
      [':model set "second" vision "true"', 'Model not found.'],
      [':model del "second"', 'Model not found.'],
    ];
    for (const [line, message] of refusals) expect((await t.run(line)).errors, line).toEqual([message]);

    const changes: [string, string, Partial<PublicModel>][] = [
      ['model', 'gpt-4o', { model: 'gpt-4o' }],
      ['provider', 'openai', { provider: 'openai' }],
      ['price_input', '0.000002', { price_input: 0.000002 }],
      ['price_output', '1e-5', { price_output: 0.00001 }],
      ['vision', 'true', { capabilities: { vision: true, tools: true, image: false, reasoning: false, context_window: null } }],
      ['tools', 'false', { capabilities: { vision: true, tools: false, image: false, reasoning: false, context_window: null } }],
      ['image', 'true', { capabilities: { vision: true, tools: false, image: true, reasoning: false, context_window: null } }],
      ['reasoning', 'TRUE', { capabilities: { vision: true, tools: false, image: true, reasoning: true, context_window: null } }],
      ['context_window', '128000', { capabilities: { vision: true, tools: false, image: true, reasoning: true, context_window: 128000 } }],
      ['provider', 'openai-compatible', { provider: 'openai-compatible' }],
      ['api_key', 'sk-replaced-key-000000000', { api_key: 'sk-********************00' }],
    ];
    for (const [key, value, expected] of changes) {
      const result = await t.run(`:model set "mine" ${key} "${value}"`);
      expect(result.errors, key).toEqual([]);
      expect(result.text).toContain('Model "mine" updated.');
      expect(lastJson(result.outputs), key).toMatchObject(expected);
    }
    expect(JSON.stringify(t.settings.get('history'))).not.toContain('sk-replaced');
    expect((await t.run(':model ls')).text).toContain('User models:\n\\mine');

    // Someone else neither sees nor deletes it.
    const other = await signedUp();
    expect((await other.run(':model "mine"')).errors).toEqual(['Model not found.']);
    expect((await other.run(':model del "mine"')).errors).toEqual(['Model not found.']);
    expect((await other.run(':model ls')).text).toContain('User models:\n(none)');

    await t.run(':model use "mine"');
    expect((await t.run(':model del "mine"')).text).toBe('Model "mine" deleted.');
    expect(t.settings.get('model')).toBe('');
    expect((await t.run(':model "mine"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':model del "mine"')).errors).toEqual(['Model not found.']);
  });

  it('anonymous visitors cannot add, change or delete models', async () => {
    const t = await tester();
    for (const line of [`:model add "m" "${userProvider.url}" "k"`, ':model set "m" vision "true"', ':model del "m"']) {
      expect((await t.run(line)).errors).toEqual(['Please login.']);
    }
  });

  it("never shows a user model's key unmasked in any API answer, nor in the server log, and seals it at rest", async () => {
    const owner = server.client();
    const username = `keyholder${++seq}`;
    await owner.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    await owner.post('/api/user/login', { username, password: PW });
    const raw = async (method: string, path: string, body?: unknown) => {
      const res = await owner.raw(`${server.url}${path}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.text();
    };
    const answers = [
      await raw('POST', '/api/model/add', { name: 'secretive', base_url: userProvider.url, api_key: USER_KEY }),
      await raw('GET', '/api/model/list'),
      await raw('GET', '/api/model/secretive'),
      await raw('POST', '/api/model/update', { name: 'secretive', key: 'vision', value: 'true' }),
      await raw('POST', '/api/model/update', { name: 'secretive', key: 'api_key', value: `${USER_KEY}-2` }),
      await raw('GET', '/api/model/list'),
      await raw('GET', '/api/user/info'),
      await raw('GET', '/api/system/info'),
    ];
    for (const text of answers) {
      expect(text).not.toContain(USER_KEY);
      expect(text).not.toContain(SYSTEM_KEY);
    }
    expect(answers[2]).toContain('"api_key":"sk-');
    const row = await server.server.db.db.selectFrom('models').selectAll().where('name', '=', 'secretive').executeTakeFirstOrThrow();
    expect(row.api_key.startsWith('v1.')).toBe(true);
    expect(row.api_key).not.toContain(USER_KEY);
    expect(server.logs()).not.toContain(USER_KEY);
  });
});

describe('a chat turn with a user model', () => {
  it("reaches the user's base URL with the user's key, never the system key", async () => {
    const t = await signedUp();
    await t.run(`:model add "own" "${userProvider.url}" "${USER_KEY}"`);
    await t.run(':model set "own" model "gpt-4o-mini"');
    expect((await t.run(':model use "own"')).text).toBe('Model set to own.');
    const systemBefore = system.requests.length;
    const before = userProvider.requests.length;
    userProvider.reply({ text: 'From your own provider.' });
    const events = await chat(t, server, SESSION + 1);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(answerText(events)).toBe('From your own provider.');
    expect(userProvider.requests.length).toBe(before + 1);
    expect(userProvider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${USER_KEY}`);
    expect(system.requests.length).toBe(systemBefore);
    expect(JSON.stringify(userProvider.requests.map((r) => r.headers))).not.toContain(SYSTEM_KEY);
  });

  it('a user model without a key does not pick up the server environment key (provider openai)', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = SYSTEM_KEY;
    try {
      const t = await signedUp();
      await t.run(`:model add "keyless" "${userProvider.url}"`);
      await t.run(':model set "keyless" provider "openai"');
      await t.run(':model set "keyless" model "gpt-4o-mini"');
      await t.run(':model use "keyless"');
      userProvider.reply({ text: 'No key.' });
      const events = await chat(t, server, SESSION + 2);
      expect(answerText(events)).toBe('No key.');
      expect(JSON.stringify(userProvider.requests.at(-1)!.headers)).not.toContain(SYSTEM_KEY);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('without EGRESS_ALLOW_HOSTS the same model is refused when added, and when called', async () => {
    const t = await signedUp({}, strict);
    const port = new URL(userProvider.url).port;
    expect((await t.run(`:model add "own" "${userProvider.url}" "${USER_KEY}"`)).errors).toEqual(['Refused to connect to 127.0.0.1 (loopback address).']);
    expect((await t.run(`:model add "own" "http://localhost:${port}/v1" "${USER_KEY}"`)).errors[0]).toMatch(/^Refused to connect to (127\.0\.0\.1|::1) \(loopback address\) \(localhost resolves to it\)\.$/);
    // A row that got in anyway (say, before the operator tightened the policy) is refused on use.
    const user = (await strict.server.accounts.byUsername(t.username))!;
    const now = Date.now();
    await strict.server.db.db
      .insertInto('models')
      .values({ name: 'own', scope: 'user', owner_id: user.id, provider: 'openai-compatible', model: 'gpt-4o-mini', base_url: userProvider.url, api_key: strict.server.models.sealKey(USER_KEY), price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now })
      .execute();
    expect((await t.run(':model use "own"')).text).toBe('Model set to own.');
    const before = userProvider.requests.length;
    const events = await chat(t, strict, SESSION + 3);
    const failure = events.find((e) => e.type === 'error') as { error: string } | undefined;
    expect(failure?.error).toContain('Refused to connect to 127.0.0.1');
    expect(userProvider.requests.length).toBe(before);
  });
});

describe('a chat turn with a local model (browser side)', () => {
  const ask = (jar: typeof fetch, options: { session: number; model?: string; ollamaUrl?: string; input?: string }) => {
    const events: GenerationEvent[] = [];
    return localGeneration({ session: options.session, user_input: options.input ?? 'hi there', model: options.model ?? 'llama3.2', mcp_tools: [] }, (e) => events.push(e), {
      signal: new AbortController().signal,
      ollamaUrl: options.ollamaUrl ?? ollama.url,
      baseUrl: server.url,
      fetch: jar,
    }).then(
      () => ({ events, error: undefined as string | undefined }),
      (err: Error) => ({ events, error: err.message }),
    );
  };

  it('builds the messages on the server, streams from Ollama, and saves the log in the own session', async () => {
    const jar = cookieFetch();
    ollama.reply({ chunks: ['Local ', 'answer.'] });
    const first = await ask(jar, { session: SESSION + 10, input: 'first question' });
    expect(first.error).toBeUndefined();
    expect(answerText(first.events)).toBe('Local answer.');
    expect(first.events.find((e) => e.type === 'model')).toEqual({ type: 'model', model: 'llama3.2' });
    const done = first.events.at(-1) as { type: string; session: number; time: number };
    expect(done).toMatchObject({ type: 'done', session: SESSION + 10 });
    const request = ollama.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toMatchObject({ model: 'llama3.2', stream: true });
    const log = await server.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 10).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ input: 'first question', output: 'Local answer.', model: 'llama3.2' });
    expect(Number(log.time)).toBe(done.time);

    // The next turn carries the first as memory.
    ollama.reply({ text: 'Second.' });
    await ask(jar, { session: SESSION + 10, input: 'second question' });
    const messages = ollama.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    expect(messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Local answer.' },
      { role: 'user', content: 'second question' },
    ]);

    // Another browser cannot add a log to that session.
    const stranger = server.client();
    await expect(stranger.post('/api/log/add', { input: 'x', output: 'injected', model: 'm', session: SESSION + 10 })).rejects.toThrow('You can only add logs to your own sessions.');
  });

  it("answers 'Cannot connect to Ollama server.' and 'Ollama model not found.', and calls nothing", async () => {
    const before = ollama.requests.length;
    expect((await ask(cookieFetch(), { session: SESSION + 11, ollamaUrl: CLOSED })).error).toBe('Cannot connect to Ollama server.');
    expect((await ask(cookieFetch(), { session: SESSION + 11, model: 'not-pulled' })).error).toBe('Ollama model not found.');
    expect(ollama.requests.length).toBe(before);
    expect(await server.server.db.db.selectFrom('logs').select('id').where('session', '=', SESSION + 11).execute()).toEqual([]);
  });

  it('turns the server messages into the Chat Completions shape (images, tool calls)', () => {
    expect(
      toChatMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', image: 'https://example.org/a.png' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_time', input: { timezone: 'UTC' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_time', output: { type: 'text', value: '12:00' } }] },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.org/a.png' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"UTC"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
    ]);
  });
});
