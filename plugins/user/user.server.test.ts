// The user commands through the real plugin host, against the real server over HTTP (SQLite):
// sign-up, login and its options, logout, account table, server settings, password, groups,
// deletion, local/server settings rules of spec part 4, history and help.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../src/core/index.ts';
import { hashToken } from '../../src/server/auth/tokens.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'hunter2hunter2';
const OLD_SESSION = 1_700_000_000_000;
const INVALID_EXPIRY = "Invalid expiration time. Please use 'h' for hours or 'd' for days.";
const HOUR = 3_600_000;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('sqlite');
}, 60_000);

afterAll(async () => {
  await server?.close();
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;

const tester = (options: Parameters<typeof createShellTester>[0] = {}) => createShellTester({ serverUrl: server.url, ...options });

/** Signs a user up through `:user add` and logs in through `:login`, in a fresh tester. */
async function signedUp(username: string, password = PW, options: Parameters<typeof createShellTester>[0] = {}): Promise<Tester> {
  const t = await tester(options);
  expect((await t.run(`:user add ${username} ${username}@example.org ${password}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${password}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

/** A logged-in tester for an existing user. */
async function loggedIn(username: string, password = PW): Promise<Tester> {
  const t = await tester();
  expect((await t.run(`:login ${username} ${password}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

/** The account as another browser (a plain API client) sees it. */
async function serverInfo(username: string, password = PW): Promise<PublicUser> {
  const api = server.client();
  await api.post('/api/user/login', { username, password });
  return (await api.get<PublicUser>('/api/user/info')).result!;
}

/** How long the tester's login cookie lasts on the server, in ms from now. */
async function loginLifetime(t: Tester): Promise<number> {
  const token = t.cookies.get('auth');
  expect(token).toBeTruthy();
  const row = await server.server.db.db
    .selectFrom('login_tokens')
    .select('expires_at')
    .where('token_hash', '=', hashToken(token!))
    .executeTakeFirstOrThrow();
  return Number(row.expires_at) - Date.now();
}

describe('sign-up and login', () => {
  it('says right after sign-up how to log in (issue 33), and not to someone already logged in', async () => {
    const notices = (outputs: { kind: string; effect?: { type: string; text?: string } }[]) =>
      outputs.flatMap((o) => (o.kind === 'effect' && o.effect?.type === 'notice' ? [o.effect.text] : []));
    const anonymous = await tester();
    const added = await anonymous.run(`:user add newt newt@example.org ${PW}`);
    expect(added.text).toBe('User newt added.');
    expect(notices(added.outputs)).toEqual(['Log in with :login newt <password>.']);
    // The hint names the username, never the password typed.
    expect(JSON.stringify(added.outputs)).not.toContain(PW);
    expect((await anonymous.run(`:login newt ${PW}`)).text).toBe('Logged in as newt.');
    const another = await anonymous.run(`:user add nora nora@example.org ${PW}`);
    expect(another.text).toBe('User nora added.');
    expect(notices(another.outputs)).toEqual([]);
  });

  it(':user add creates the account; :login sets the user and loads the server settings into local ones', async () => {
    const anonymous = await tester();
    expect((await anonymous.run(`:user add ada ada@example.org ${PW}`)).text).toBe('User ada added.');

    // Another browser logs in and changes the theme on the server.
    const other = await loggedIn('ada');
    expect((await other.run(':user set theme "dark"')).text).toBe('Setting updated.');
    expect(other.settings.get('theme')).toBe('dark');

    const t = await tester();
    expect(t.settings.get('theme')).toBe('light');
    const result = await t.run(`:login ada ${PW}`);
    expect(result.text).toBe('Logged in as ada.');
    expect(result.errors).toEqual([]);
    expect(t.settings.get('user')).toBe('ada');
    expect(t.settings.get('theme')).toBe('dark');
    expect(t.cookies.get('auth')).toBeTruthy();
  });

  it('refuses a wrong password with the server message and stays anonymous', async () => {
    const t = await tester();
    expect((await t.run(':login ada wrong-password')).errors).toEqual(['Incorrect username or password.']);
    expect(t.settings.get('user')).toBe('');
  });

  it(':login options: none → 24h, --save and -s → 7d, --save 12h, --save 3d', async () => {
    const t = await tester();
    expect((await t.run(`:login ada ${PW}`)).text).toBe('Logged in as ada.');
    expect(Math.round((await loginLifetime(t)) / HOUR)).toBe(24);
    for (const [options, hours] of [['--save', 7 * 24], ['-s', 7 * 24], ['--save 12h', 12], ['--save 3d', 3 * 24], ['-s 2h', 2]] as const) {
      expect((await t.run(`:login ada ${PW} ${options}`)).text, options).toBe('Logged in as ada.');
      expect(Math.round((await loginLifetime(t)) / HOUR), options).toBe(hours);
    }
  });

  it(':login refuses other expirations with the spec message, and says what else is wrong', async () => {
    const t = await tester();
    for (const options of ['--save 10m', '--save 12', '--save h', '--save 1d 2d']) {
      expect((await t.run(`:login ada ${PW} ${options}`)).errors, options).toEqual([INVALID_EXPIRY]);
    }
    // Zero is a time in hours or days, only too short; words without --save are most likely a
    // password with spaces (`:login carl pass word 123`).
    for (const options of ['-s 0d', '--save 0h']) expect((await t.run(`:login ada ${PW} ${options}`)).errors, options).toEqual(['Invalid expiration time. A login lasts at least 1h.']);
    for (const options of ['--bogus', 'word 123']) {
      expect((await t.run(`:login ada ${PW} ${options}`)).errors, options).toEqual(['Only --save (or -s) may follow the password. A password with spaces goes in double quotes.']);
    }
    expect(t.settings.get('user')).toBe('');
    expect(t.cookies.get('auth')).toBeUndefined();
  });

  it('logging in again while logged in resets the session (spec part 4)', async () => {
    const t = await tester({ settings: { session: OLD_SESSION, time: OLD_SESSION, head: OLD_SESSION + 1, historyIndex: 2 } });
    await t.run(`:login ada ${PW}`);
    // The first login does not touch the session.
    expect(t.settings.get('session')).toBe(OLD_SESSION);
    const before = Date.now();
    expect((await t.run(`:login ada ${PW} -s`)).text).toBe('Logged in as ada.');
    expect(t.settings.get<number>('session')).toBeGreaterThanOrEqual(before);
    expect(t.settings.get('time')).toBe(t.settings.get('session'));
    expect(t.settings.get('head')).toBe(0);
    expect(t.settings.get('historyIndex')).toBe(-1);
    expect(t.settings.get('user')).toBe('ada');
  });
});

describe('account and settings', () => {
  it(':user, :user info and :u show the account table', async () => {
    const t = await loggedIn('ada');
    for (const line of [':user', ':user info', ':u']) {
      const { outputs, errors } = await t.run(line);
      expect(errors, line).toEqual([]);
      const table = outputs[0]!;
      expect(table.kind, line).toBe('table');
      if (table.kind !== 'table') continue;
      expect(table.columns).toEqual(['Item', 'Value']);
      const rows = Object.fromEntries(table.rows);
      expect(rows).toMatchObject({
        Username: 'ada',
        'E-mail': 'ada@example.org (not verified)',
        Role: 'user',
        'Role expires': 'Unlimited',
        Balance: '$0',
        // No question asked yet: nothing spent.
        'Usage (fees so far)': '$0',
        Groups: 'ada',
      });
      expect(rows['Group password']).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(rows.Created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it(':user set takes a quoted value, reports the server validation, and :user reset restores defaults', async () => {
    const t = await signedUp('cleo');
    expect((await t.run(':user set theme dark')).errors).toEqual(['Setting value must be quoted with double quotes.']);
    expect(t.settings.get('theme')).toBe('light');
    expect((await t.run(':user set theme "dark"')).text).toBe('Setting updated.');
    expect(t.settings.get('theme')).toBe('dark');
    expect((await serverInfo('cleo')).settings.theme).toBe('dark');
    expect((await t.run(':user set theme "blue"')).errors).toEqual(['Invalid value. Value must be one of: light, dark, terminal']);
    expect(t.settings.get('theme')).toBe('dark');
    expect((await t.run(':user set memLength "3"')).text).toBe('Setting updated.');
    expect(t.settings.get('memLength')).toBe(3);

    expect((await t.run(':user reset theme')).text).toBe('Setting reset.');
    expect(t.settings.get('theme')).toBe('light');
    expect((await serverInfo('cleo')).settings.theme).toBe('light');

    await t.run(':user set theme "terminal"');
    const groupPassword = (await serverInfo('cleo')).settings.groupPassword;
    expect((await t.run(':user reset settings')).text).toBe('Settings reset.');
    expect(t.settings.get('theme')).toBe('light');
    expect(t.settings.get('memLength')).toBe(7);
    const after = await serverInfo('cleo');
    expect(after.settings).toMatchObject({ theme: 'light', memLength: 7 });
    expect(after.settings.groupPassword).not.toBe(groupPassword);
  });

  it(':user set pass changes the password; a fresh tester logs in with the new one', async () => {
    const t = await signedUp('dan');
    expect((await t.run(':user set pass new-password-22')).text).toBe('Password updated.');
    // This browser stays logged in.
    expect((await t.run(':user')).errors).toEqual([]);
    const old = await tester();
    expect((await old.run(`:login dan ${PW}`)).errors).toEqual(['Incorrect username or password.']);
    const fresh = await tester();
    expect((await fresh.run(':login dan new-password-22')).text).toBe('Logged in as dan.');
    expect(fresh.settings.get('user')).toBe('dan');
  });

  it(':user join <group> <pw> and :user leave <group>', async () => {
    const owner = await loggedIn('ada');
    const groupPassword = String((await serverInfo('ada')).settings.groupPassword);
    const member = await signedUp('finn');
    expect((await member.run(':user join ada wrongpass1')).errors).toEqual(['Group not found or wrong password.']);
    expect((await member.run(`:user join ada ${groupPassword}`)).text).toBe('Joined group ada.');
    const table = (await member.run(':user')).outputs[0]!;
    expect(table.kind === 'table' && Object.fromEntries(table.rows).Groups).toBe('ada, finn');
    expect((await member.run(':user leave finn')).errors).toEqual(['You cannot leave your own group.']);
    expect((await member.run(':user leave ada')).text).toBe('Left group ada.');
    expect((await serverInfo('finn')).groups).toEqual(['finn']);
    expect(owner.settings.get('user')).toBe('ada');
  });

  it(':user del removes the account and clears the local user', async () => {
    const t = await signedUp('eve', PW, { settings: { session: OLD_SESSION } });
    const before = Date.now();
    expect((await t.run(':user del eve')).text).toBe('User removed.');
    expect(t.settings.get('user')).toBe('');
    expect(t.settings.get<number>('session')).toBeGreaterThanOrEqual(before);
    expect((await t.run(':user')).errors).toEqual(['Please login.']);
    expect((await tester().then((f) => f.run(`:login eve ${PW}`))).errors).toEqual(['Incorrect username or password.']);
  });

  it(':user del of someone else is refused and keeps the local user', async () => {
    const t = await loggedIn('finn');
    expect((await t.run(':user del ada')).errors).toEqual(['You cannot delete this user.']);
    expect(t.settings.get('user')).toBe('finn');
  });
});

describe('logout and anonymous visitors', () => {
  it(':logout clears the user and resets the session; a second :logout answers Not logged in.', async () => {
    const t = await loggedIn('ada');
    t.settings.set('session', OLD_SESSION);
    const before = Date.now();
    expect((await t.run(':logout')).text).toBe('Logged out.');
    expect(t.settings.get('user')).toBe('');
    expect(t.settings.get<number>('session')).toBeGreaterThanOrEqual(before);
    expect(t.cookies.get('auth')).toBeUndefined();
    expect((await t.run(':user')).errors).toEqual(['Please login.']);
    expect((await t.run(':logout')).errors).toEqual(['Not logged in.']);
  });

  it(':logout when never logged in answers Not logged in.', async () => {
    const t = await tester();
    expect((await t.run(':logout')).errors).toEqual(['Not logged in.']);
  });

  it('anonymous :user, :user set and :user join answer Please login.', async () => {
    const t = await tester();
    for (const line of [':user', ':user info', ':u', ':user set theme "dark"', ':user set pass abcdefgh1', ':user join ada abcdefgh', ':user leave ada', ':user reset theme', ':user del ada']) {
      expect((await t.run(line)).errors, line).toEqual(['Please login.']);
    }
  });

  it('offline, :login is not available', async () => {
    const t = await createShellTester({ online: false });
    expect((await t.run(':login a b')).errors).toEqual(['`:login` command is not available offline.']);
    expect((await t.run(':logout')).errors).toEqual(['`:logout` command is not available offline.']);
    expect((await t.run(':user add a a@b.c')).errors).toEqual(['`:user` command is not available offline.']);
  });
});

describe('local and server settings (spec part 4)', () => {
  it('a local change of a synced setting while logged in reaches the server', async () => {
    const t = await signedUp('gus');
    expect((await t.run(':theme terminal')).errors).toEqual([]);
    expect(t.settings.get('theme')).toBe('terminal');
    await expect.poll(async () => (await serverInfo('gus')).settings.theme, { timeout: 3000 }).toBe('terminal');
    // Settings that are not synced stay local.
    t.settings.set('session', OLD_SESSION);
    await t.run(':user');
    expect(t.settings.get('theme')).toBe('terminal');
  });

  it('anonymous local changes stay local', async () => {
    const before = (await serverInfo('ada')).settings.theme;
    const t = await tester();
    await t.run(`:theme ${before === 'terminal' ? 'dark' : 'terminal'}`);
    await new Promise((r) => setTimeout(r, 200));
    expect((await serverInfo('ada')).settings.theme).toBe(before);
  });

  it('a corrupt local user (no server login behind it) is cleared by the start-up check', async () => {
    const t = await tester({ settings: { user: 'ghost', session: OLD_SESSION } });
    expect(t.settings.get('user')).toBe('ghost');
    await t.host.activateStartup();
    await expect.poll(() => t.settings.get('user'), { timeout: 3000 }).toBe('');
    expect(t.settings.get<number>('session')).toBeGreaterThan(OLD_SESSION);
  });

  it('the start-up check keeps a valid login and refreshes the settings from the server', async () => {
    const t = await loggedIn('ada');
    await (await loggedIn('ada')).run(':user set theme "terminal"');
    // A new start of the same browser: same cookie, a local user, stale local settings.
    const restarted = await tester({ settings: { user: 'ada', theme: 'light' } });
    for (const [name, value] of t.cookies) restarted.cookies.set(name, value);
    await restarted.host.activateStartup();
    await expect.poll(() => restarted.settings.get('theme'), { timeout: 3000 }).toBe('terminal');
    expect(restarted.settings.get('user')).toBe('ada');
  });
});

describe('history and help', () => {
  it('lines with passwords are never remembered', async () => {
    // Offline, so that nothing reaches the server: remembering is decided before any gate.
    const t = await createShellTester({ online: false });
    for (const line of [`:login ada pw`, ':user add zed zed@example.org secret-pass-1', ':user set pass x', ':user join g p', ':LOGIN ada pw']) {
      expect((await t.run(line)).remember, line).toBe(false);
    }
    expect((await t.run(':user')).remember).toBe(true);
    expect((await t.run(':logout')).remember).toBe(true);
  });

  it(':help lists the user commands with their generated usage lines', async () => {
    const t = await tester();
    const { outputs } = await t.run(':help');
    const user = outputs.find((o) => o.kind === 'table' && o.title === 'User');
    expect(user?.kind).toBe('table');
    const usages = user?.kind === 'table' ? user.rows.map((r) => r[0]) : [];
    expect(usages).toEqual([
      ':login <username> <password> [--save|-s [Nh|Nd]]',
      ':logout',
      ':user',
      ':user add <username> <email> [<password>]',
      ':user set pass <password>',
      ':user set email <email>',
      ':user set <key> "<value>"',
      ':user reset settings',
      ':user reset pass <username> <email>',
      ':user reset <key>',
      ':user del <username>',
      ':user join <group> <password>',
      ':user leave <group>',
      ':invite <email>',
      // The subscription plugin's, in the same group.
      ':subscription',
      ':subscription ls',
      ':subscription buy <plan>',
      ':subscription topup {1|5|10|20|50}',
      // The sso plugin's commands, in the user group too.
      ':login sso [<provider>]',
      ':user sso link [<provider>]',
      ':user sso',
      ':sso test',
      ':sso',
      // The audit plugin's (root reads the trail), in the same group.
      ':audit [user=<name>] [kind=<kind>] [since=<time>] [until=<time>] [limit=<n>]',
    ]);
    expect(user?.kind === 'table' && user.rows.every((r) => r[1] && !r[1].startsWith('cmd.'))).toBe(true);

    const help = (await t.run(':help user')).text;
    expect(help).toContain(':user add <username> <email> [<password>]');
    expect(help).toContain(':user set <key> "<value>"');
    expect(help).toContain('Aliases: :u, :user info');
    expect(help).toContain('Requires login.');
    expect((await t.run(':help login')).text).toContain(':login <username> <password> [--save|-s [Nh|Nd]]');
  });
});
