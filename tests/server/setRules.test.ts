// Every setting `:set` writes is checked by the rule that reads it later (issue 27, bug 2):
// memLength by the generation request's rule (`:set memLength 2.5` broke every question after
// it), stores by `:store use`'s (three at most, each one that exists), role and model by
// `:role use` and `:model use`; `:user set` and `:set` agree. Through the real plugin host,
// against the real server and a fake OpenAI-compatible provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { createShellTester } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

const PW = 'set-rules-password-1';
let fake: FakeOpenAI;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-set' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

let seq = 0;
async function signedUp() {
  const username = `setter${++seq}`;
  const t = await createShellTester({ plugins: ['general', 'user', 'role', 'model', 'store'], serverUrl: server.url });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

describe(':set checks each value by the rule that reads it', () => {
  it('memLength: a whole number from 0 to 100, as `:user set` and the generation request have it', async () => {
    const t = await signedUp();
    const range = 'Invalid value. Value must be a whole number from 0 to 100.';
    for (const bad of ['2.5', '-3', '101', '123456789012345678901']) {
      expect([bad, (await t.run(`:set memLength ${bad}`)).errors]).toEqual([bad, [range]]);
      expect([bad, (await t.run(`:user set memLength "${bad}"`)).errors]).toEqual([bad, [range]]);
    }
    expect((await t.run(':set memLength lots')).errors).toEqual(['Invalid value. Value must be a number.']);
    expect(t.settings.get('memLength')).toBe(7);
    expect((await t.run(':set memLength 0')).text).toBe('memLength: 0');
    expect((await t.run(':set memLength 100')).text).toBe('memLength: 100');
    // Whatever `:set` took, the server takes in a question.
    const answer = await fetch(`${server.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: Date.now(), user_input: 'hi', mem_length: t.settings.get('memLength') }),
    });
    expect(answer.status).toBe(200);
  });

  it('lang: `:user set lang` takes what `:lang use` takes (a prefix of a code)', async () => {
    const t = await signedUp();
    expect((await t.run(':user set lang "ja"')).errors).toEqual([]);
    expect(t.settings.get('lang')).toBe('ja-JP');
    expect((await t.run(':user set lang "zh"')).errors).toEqual(['Multiple language codes found: zh-CN, zh-HK, zh-TW']);
    expect((await t.run(':user set lang "xx"')).errors).toEqual(['Language code not found.']);
  });

  it('session and time: a session id in range, whole times', async () => {
    const t = await createShellTester({ plugins: ['general'] });
    expect((await t.run(':set session 2.5')).errors).toEqual(['Time traveler detected.']);
    expect((await t.run(':set session 5')).errors).toEqual(['Time traveler detected.']);
    expect((await t.run(':set session 1700000000000')).text).toBe('session: 1700000000000');
    expect((await t.run(':set time -5')).errors).toEqual(['Invalid value. Value must be a number.']);
  });

  it("stores: at most three, each one the user may use, as `:store use` has it", async () => {
    const t = await signedUp();
    expect((await t.run(':set stores "a,b,c,d"')).errors).toEqual(['You can only use 3 stores at the same time. Please unuse one of them first.']);
    expect((await t.run(':set stores "nosuch"')).errors).toEqual(['Store not exists. (nosuch)']);
    expect(t.settings.get('stores')).toBe('');
    expect((await t.run(':store add "file" "notes"')).text).toContain('Store `notes` is created.');
    expect((await t.run(':store add "file" "more"')).text).toContain('Store `more` is created.');
    expect((await t.run(':set stores ""')).errors).toEqual([]);
    expect(t.settings.get('stores')).toBe('');
    expect((await t.run(':set stores "notes,more"')).errors).toEqual([]);
    expect(t.settings.get('stores')).toBe('notes,more');
    expect((await t.run(':set stores "notes,gone"')).errors).toEqual(['Store not exists. (gone)']);
    expect(t.settings.get('stores')).toBe('notes,more');
  });

  it("a group's store leaves the active list with the group, saying so", async () => {
    const owner = await signedUp();
    const member = await signedUp();
    expect((await owner.run(':store add "file" "shared"')).errors).toEqual([]);
    const ownerName = `setter${seq - 1}`;
    const api = server.client();
    await api.post('/api/user/login', { username: ownerName, password: PW });
    const groupPassword = (await api.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!.settings.groupPassword;
    expect((await member.run(`:user join ${ownerName} ${groupPassword}`)).errors).toEqual([]);
    expect((await member.run(':store use "shared"')).errors).toEqual([]);
    expect((await member.run(`:user leave ${ownerName}`)).errors).toEqual([]);
    const searched = await member.run(':store search "anything"');
    expect(searched.outputs[0]).toEqual({ kind: 'text', text: 'No longer yours to use, so no longer active: shared.' });
    expect(searched.errors).toEqual(['No data store is set...']);
    expect(member.settings.get('stores')).toBe('');
  });

  it('role and model: `:role use` and `:model use`, so a name that does not exist is refused', async () => {
    const t = await signedUp();
    expect((await t.run(':set role "nosuch"')).errors).toEqual(['Role "nosuch" does not exist.']);
    expect(t.settings.get('role')).toBe('');
    expect((await t.run(':set role "coder"')).errors).toEqual([]);
    expect(t.settings.get('role')).toBe('coder');
    expect((await t.run(':set model "nosuch"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':set model "gpt-4o-mini"')).errors).toEqual([]);
    expect(t.settings.get('model')).toBe('gpt-4o-mini');
    // Its base URL follows, as with `:model use`: none for a system model, whose URL is the
    // operator's (issue 34).
    expect(t.settings.get('baseUrl')).toBe('');
  });
});
