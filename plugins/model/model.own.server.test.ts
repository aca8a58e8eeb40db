// A user's own models through the real plugin host against the real server over HTTP (SQLite)
// and a real-wire fake provider: adding, changing and deleting them (validation, masking,
// ownership), the key sealed at rest and never shown, and the one rule that matters most: a
// user model's base URL receives the user's key, never a system key, and only when the egress
// policy allows it. Setup in modelTestSupport.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent, PublicModel } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import type { TestServer } from '../../tests/server/support.ts';
import {
  answerText,
  lastJson,
  nextSeq,
  PW,
  server,
  SESSION,
  signedUp,
  startModelServers,
  stopModelServers,
  strict,
  system,
  SYSTEM_KEY,
  tester,
  userProvider,
  USER_KEY,
  type Tester,
} from './modelTestSupport.ts';
import type { ModelsDb } from './server/table.ts';

beforeAll(startModelServers, 60_000);
afterAll(stopModelServers);

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
    const username = `keyholder${nextSeq()}`;
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
    const row = await (server.server.db.db as ModelsDb).selectFrom('models').selectAll().where('name', '=', 'secretive').executeTakeFirstOrThrow();
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
    expect((await t.run(`:model add "own" "http://localhost:${port}/v1" "${USER_KEY}"`)).errors[0]).toBe('Refused to connect to localhost: it does not resolve to a public address.');
    // A row that got in anyway (say, before the operator tightened the policy) is refused on use.
    const user = (await strict.server.accounts.byUsername(t.username))!;
    const now = Date.now();
    await (strict.server.db.db as ModelsDb)
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
