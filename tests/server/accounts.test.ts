// Accounts over real HTTP on every database engine: sign-up, login and logout, settings,
// groups, deletion, ranks and root, with the spec's messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, PublicUser } from '../../src/core/index.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';


describe.each(await engines())('accounts on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function signup(api: ApiClient, username: string, password = 'correct-horse-1') {
    await api.post('/api/user/add', { username, email: `${username}@example.org`, password });
    await api.post('/api/user/login', { username, password });
  }

  it('signs up with an own group and an 8-letter group password', async () => {
    const api = t.client();
    const added = await api.post('/api/user/add', { username: 'Ada', email: 'ada@example.org', password: 'correct-horse-1' });
    expect(added.message).toBe('User ada added.');
    await api.post('/api/user/login', { username: 'ada', password: 'correct-horse-1' });
    const info = (await api.get<PublicUser>('/api/user/info')).result!;
    expect(info).toMatchObject({ username: 'ada', email: 'ada@example.org', role: 'user', role_expires: 'Unlimited', balance: 0, groups: ['ada'] });
    expect(String(info.settings.groupPassword)).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(info.settings).toMatchObject({ theme: 'light', memLength: 7, useSystemRole: true, passMask: true });
  });

  it('refuses bad sign-ups with clear messages', async () => {
    const api = t.client();
    expect(await failure(api.post('/api/user/add', { username: 'bob', email: 'bob@@x', password: 'correct-horse-1' }))).toEqual({ status: 400, error: 'Email is invalid.' });
    expect(await failure(api.post('/api/user/add', { username: 'bob', email: 'bob.example.org', password: 'correct-horse-1' }))).toEqual({ status: 400, error: 'Email is invalid.' });
    expect((await failure(api.post('/api/user/add', { username: '9lives', email: 'a@b.c', password: 'correct-horse-1' }))).error).toMatch(/^Username must start with a letter/);
    expect((await failure(api.post('/api/user/add', { username: 'bob', email: 'a@b.c', password: 'short' }))).error).toBe('Password must be at least 8 characters.');
    expect(await failure(api.post('/api/user/add', { username: 'ADA', email: 'x@y.z', password: 'correct-horse-1' }))).toEqual({ status: 409, error: 'Username already exists.' });
    expect((await failure(api.post('/api/user/add', { email: 'x@y.z' }))).error).toMatch(/^Invalid username/);
    // One account per e-mail address, whatever its case (invitation rewards are paid once per address).
    expect(await failure(api.post('/api/user/add', { username: 'adatwin', email: 'ADA@Example.org', password: 'correct-horse-1' }))).toEqual({
      status: 409,
      error: 'An account with this e-mail address already exists.',
    });
  });

  it('generates a password when none is given, shown once without mail', async () => {
    const api = t.client();
    const added = await api.post<{ password: string }>('/api/user/add', { username: 'gen', email: 'gen@example.org' });
    expect(added.result!.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(added.message).toContain(added.result!.password);
    await api.post('/api/user/login', { username: 'gen', password: added.result!.password });
  });

  it('logs in with an HttpOnly, SameSite=Lax cookie holding an opaque token stored hashed', async () => {
    const api = t.client();
    await api.post('/api/user/add', { username: 'carol', email: 'carol@example.org', password: 'correct-horse-1' });
    const response = await api.raw(`${t.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carol', password: 'correct-horse-1' }),
    });
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^auth=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // plain http here
    const token = api.cookies.get('auth')!;
    const stored = await t.server.db.db.selectFrom('login_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
  });

  it('expires logins after 24h by default, 7d with --save, and refuses other units', async () => {
    const api = t.client();
    await api.post('/api/user/add', { username: 'dave', email: 'dave@example.org', password: 'correct-horse-1' });
    const login = async (expiresIn?: string) =>
      (await api.post<{ expires_at: number }>('/api/user/login', { username: 'dave', password: 'correct-horse-1', ...(expiresIn ? { expiresIn } : {}) })).result!.expires_at - Date.now();
    expect(Math.round((await login()) / 3_600_000)).toBe(24);
    expect(Math.round((await login('7d')) / 86_400_000)).toBe(7);
    expect(Math.round((await login('12h')) / 3_600_000)).toBe(12);
    expect(await failure(login('10m'))).toEqual({ status: 400, error: "Invalid expiration time. Please use 'h' for hours or 'd' for days." });
  });

  it('refuses wrong passwords, then throttles the username', async () => {
    const api = t.client();
    await api.post('/api/user/add', { username: 'erin', email: 'erin@example.org', password: 'correct-horse-1' });
    for (let i = 0; i < 5; i++) {
      expect(await failure(api.post('/api/user/login', { username: 'erin', password: 'wrong-password' }))).toEqual({ status: 401, error: 'Incorrect username or password.' });
    }
    const throttled = await failure(api.post('/api/user/login', { username: 'erin', password: 'correct-horse-1' }));
    expect(throttled.status).toBe(429);
    expect(throttled.error).toMatch(/^Too many failed logins/);
  });

  it('logs out by revoking the token on the server', async () => {
    const api = t.client();
    await signup(api, 'frank');
    const token = api.cookies.get('auth')!;
    expect((await api.post('/api/user/logout', { username: 'frank' })).message).toBe('Logged out.');
    expect(await failure(api.get('/api/user/info'))).toEqual({ status: 401, error: 'Please login.' });
    // The old token no longer works, even if someone kept it.
    const replay = await fetch(`${t.url}/api/user/info`, { headers: { cookie: `auth=${token}` } });
    expect(replay.status).toBe(401);
    expect(await failure(api.post('/api/user/logout', {}))).toEqual({ status: 401, error: 'Not logged in.' });
  });

  it('changes, resets and validates settings', async () => {
    const api = t.client();
    await signup(api, 'gina');
    const set = async (key: string, value: unknown) => (await api.post<{ settings: Record<string, unknown> }>('/api/user/update/setting', { key, value })).result!.settings;
    expect((await set('theme', 'dark')).theme).toBe('dark');
    expect((await set('memLength', '3')).memLength).toBe(3);
    expect((await set('useEval', 'true')).useEval).toBe(true);
    expect((await set('lang', 'zh-CN')).lang).toBe('zh-CN');
    expect(await failure(set('theme', 'blue'))).toEqual({ status: 400, error: 'Invalid value. Value must be one of: light, dark, terminal' });
    expect(await failure(set('memLength', 'x'))).toEqual({ status: 400, error: 'Invalid value. Value must be a number.' });
    expect(await failure(set('useEval', 'yes'))).toEqual({ status: 400, error: 'Invalid value. Value must be true or false.' });
    expect(await failure(set('lang', 'xx-XX'))).toEqual({ status: 400, error: 'Language code not found.' });
    expect((await failure(set('colour', 'red'))).error).toMatch(/^Unknown key\. Key must be one of: lang, theme, fullscreen/);
    expect((await api.post<{ settings: Record<string, unknown> }>('/api/user/reset-setting', { key: 'theme' })).result!.settings.theme).toBe('light');
    const before = (await api.get<PublicUser>('/api/user/info')).result!.settings.groupPassword;
    const reset = (await api.post<{ settings: Record<string, unknown> }>('/api/user/reset-settings', {})).result!.settings;
    expect(reset).toMatchObject({ lang: '', memLength: 7, useEval: false });
    expect(reset.groupPassword).not.toBe(before);
  });

  it('changes the password, logging other browsers out', async () => {
    const first = t.client();
    await signup(first, 'hank');
    const second = t.client();
    await second.post('/api/user/login', { username: 'hank', password: 'correct-horse-1' });
    expect((await first.post('/api/user/update/password', { password: 'new-password-2' })).message).toBe('Password updated.');
    await first.get('/api/user/info');
    expect((await failure(second.get('/api/user/info'))).status).toBe(401);
    expect((await failure(t.client().post('/api/user/login', { username: 'hank', password: 'correct-horse-1' }))).status).toBe(401);
    await t.client().post('/api/user/login', { username: 'hank', password: 'new-password-2' });
  });

  it('joins and leaves groups with the owner\'s group password', async () => {
    const owner = t.client();
    await signup(owner, 'ivy');
    const groupPassword = String((await owner.get<PublicUser>('/api/user/info')).result!.settings.groupPassword);
    const member = t.client();
    await signup(member, 'jack');
    expect(await failure(member.post('/api/user/group/join', { group: 'ivy', password: 'wrongpass' }))).toEqual({ status: 403, error: 'Group not found or wrong password.' });
    expect(await failure(member.post('/api/user/group/join', { group: 'nosuch', password: groupPassword }))).toEqual({ status: 403, error: 'Group not found or wrong password.' });
    expect((await member.post('/api/user/group/join', { group: 'ivy', password: groupPassword })).message).toBe('Joined group ivy.');
    expect((await member.get<PublicUser>('/api/user/info')).result!.groups).toEqual(['ivy', 'jack']);
    expect((await failure(member.post('/api/user/group/leave', { group: 'jack' }))).error).toBe('You cannot leave your own group.');
    expect((await member.post('/api/user/group/leave', { group: 'ivy' })).message).toBe('Left group ivy.');
    expect((await member.get<PublicUser>('/api/user/info')).result!.groups).toEqual(['jack']);
  });

  it('deletes an account with its data; only the user or root may', async () => {
    const victim = t.client();
    await signup(victim, 'kate');
    const other = t.client();
    await signup(other, 'liam');
    expect(await failure(other.post('/api/user/delete', { username: 'kate' }))).toEqual({ status: 403, error: 'You cannot delete this user.' });
    expect((await victim.post('/api/user/delete', { username: 'kate' })).message).toBe('User removed.');
    expect((await failure(victim.get('/api/user/info'))).status).toBe(401);
    const db = t.server.db.db;
    expect(await db.selectFrom('users').select('id').where('username', '=', 'kate').execute()).toEqual([]);
    expect(await db.selectFrom('groups').select('id').where('name', '=', 'kate').execute()).toEqual([]);
    const root = t.client();
    await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
    expect((await root.post('/api/user/delete', { username: 'liam' })).message).toBe('User removed.');
    expect(await failure(root.post('/api/user/delete', { username: 'root' }))).toEqual({ status: 403, error: 'You cannot delete this user.' });
  });

  it('creates root as root_user from ROOT_PASSWORD; only root changes roles and balances', async () => {
    const root = t.client();
    await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
    expect((await root.get<PublicUser>('/api/user/info')).result).toMatchObject({ role: 'root_user', role_expires: 'Unlimited' });
    const user = t.client();
    await signup(user, 'mia');
    expect((await failure(user.post('/api/user/update/role', { role: 'root_user' }))).status).toBe(403);
    expect((await failure(user.post('/api/user/update/balance', { amount: 100 }))).status).toBe(403);
    const expiry = Date.UTC(2027, 0, 31);
    await root.post('/api/user/update/role', { role: 'plus_user', username: 'mia', expires_at: expiry });
    // Balances are whole cents (the ledger): root's adjustment is rounded to the cent.
    await root.post('/api/user/update/balance', { amount: 5.123456789, username: 'mia' });
    expect((await user.get<PublicUser>('/api/user/info')).result).toMatchObject({ role: 'plus_user', role_expires: '01/31/2027', balance: 5.12 });
  });
});
