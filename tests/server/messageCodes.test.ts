// Messages travel as codes (issue 21 part 2): the server answers the spec's English with the
// message's code and values beside it, the shell translates by the code, and text that only
// reads like a message (a role's prompt, a model's words) is shown as it is. Before, every output
// was matched against every template, so such text came out "translated".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTester } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

const PW = 'hunter2hunter2';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('sqlite');
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function german(username: string) {
  const de = await createShellTester({ plugins: ['general', 'user', 'role'], serverUrl: server.url, lang: 'de-DE' });
  await de.run(`:user add ${username} ${username}@example.org ${PW}`);
  expect((await de.run(`:login ${username} ${PW}`)).errors).toEqual([]);
  return de;
}

describe('messages as codes', () => {
  it('the API answers the English with the code and its values', async () => {
    const response = await fetch(`${server.url}/api/role/ghost`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'Role "ghost" does not exist.', code: 'role.notExist', params: { name: 'ghost' } });
    // A message with a fixed value carries it too, so that a translation may place it.
    const login = await fetch(`${server.url}/api/user/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'shorty', email: 'shorty@example.org', password: 'short' }),
    });
    expect(await login.json()).toMatchObject({ success: false, error: 'Password must be at least 8 characters.', code: 'core.passwordShort', params: { passwordMin: 8 } });
  });

  it('the shell shows a server refusal in the person’s language, by its code', async () => {
    const de = await german('codes1');
    expect((await de.run(':role "ghost"')).errors).toEqual(['Rolle "ghost" existiert nicht.']);
    expect((await de.run(':role add "gruss" "Sei freundlich."')).text.split('\n')[0]).toBe('Rolle "gruss" hinzugefügt.');
  });

  it('text that reads like a message is shown as it is, in any language', async () => {
    const de = await german('codes2');
    const prompt = 'Role "ghost" does not exist.';
    await de.run(`:role add "echo" "${prompt.replace(/"/g, '\\"')}"`);
    const shown = await de.run(':role "echo"');
    expect(shown.text).toContain(prompt);
    expect(shown.text).not.toContain('existiert nicht');
  });
});
