// Guessing secrets over HTTP (issue 34, items 5 to 7), from the addresses a proxy names
// (TRUST_PROXY): a stranger's wrong passwords lock the stranger out, not the owner at their own
// address, root included; a guess spread over many addresses stops too, except where the
// owner logged in before; wrong group passwords are throttled as logins are, and a group
// password one chooses must be strong; sign-ups that say a name or an address has an account
// are counted per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/support.ts';

const ROOT_PASSWORD = 'root-password-1';
const PW = 'correct-horse-1';
// Each login hashes with scrypt, one after another: generous on a shared, loaded machine.
const SLOW = 120_000;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer('sqlite', { ROOT_PASSWORD, TRUST_PROXY: 'true' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  error?: string;
  retryAfter: number;
  result?: Record<string, unknown>;
}

/** One browser at one address: its own login cookie, every request forwarded from `address`. */
function at(address: string) {
  let cookie = '';
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { 'x-forwarded-for': address };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${t.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const auth = res.headers.getSetCookie().find((c) => c.startsWith('auth='));
    if (auth) cookie = auth.split(';')[0]!;
    const json = (await res.json().catch(() => ({}))) as { error?: string; result?: Record<string, unknown> };
    return { status: res.status, error: json.error, retryAfter: Number(res.headers.get('retry-after') ?? 0), result: json.result };
  };
  return {
    post: (path: string, body: unknown) => send('POST', path, body),
    get: (path: string) => send('GET', path),
    login: (username: string, password: string) => send('POST', '/api/user/login', { username, password }),
  };
}

let seq = 0;
/** A fresh address in a documentation range, never used before in this file. */
const address = () => `198.18.${Math.floor(++seq / 250)}.${seq % 250}`;

async function signUp(username: string, from = at(address())) {
  expect((await from.post('/api/user/add', { username, email: `${username}@example.org`, password: PW })).status).toBe(200);
  return from;
}

describe('login lock-out (item 7)', () => {
  it("a stranger's 25 wrong root passwords lock the stranger out, never root at its own address or elsewhere", async () => {
    const home = at(address());
    expect((await home.login('root', ROOT_PASSWORD)).status).toBe(200);
    const attacker = at(address());
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await attacker.login('root', `guess-${i}-wrong`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // Even the right password is refused to the stranger's address now: the guessing is over.
    const refused = await attacker.login('root', ROOT_PASSWORD);
    expect(refused).toMatchObject({ status: 429, error: expect.stringMatching(/^Too many failed logins\. Try again in \d+ minutes\.$/) });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);
    // Root logs in from home, and from an address it never used.
    expect((await at(address()).login('root', ROOT_PASSWORD)).status).toBe(200);
    expect((await home.login('root', ROOT_PASSWORD)).status).toBe(200);
    expect(t.logs()).not.toContain(ROOT_PASSWORD);
  }, SLOW);

  it('the same for any user: five typos of their own lock only their own address, until they pass', async () => {
    const home = await signUp('vale');
    for (let i = 0; i < 4; i++) expect((await home.login('vale', 'typo-typo-1')).status).toBe(401);
    // A success forgets the typos of this address.
    expect((await home.login('vale', PW)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await home.login('vale', 'typo-typo-1')).status).toBe(401);
    expect((await home.login('vale', PW)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await home.login('vale', 'typo-typo-1')).status).toBe(401);
    expect((await home.login('vale', PW)).status).toBe(429);
    expect((await at(address()).login('vale', PW)).status).toBe(200);
  }, SLOW);

  it('a guess spread over many addresses stops at 50 failures, except at addresses the owner logged in from', async () => {
    const home = await signUp('wren');
    expect((await home.login('wren', PW)).status).toBe(200);
    // Ten addresses, five guesses each: none is locked by its own count.
    for (let a = 0; a < 10; a++) {
      const bot = at(address());
      for (let i = 0; i < 5; i++) expect((await bot.login('wren', `bot-${a}-${i}-wrong`)).status).toBe(401);
    }
    // The 51st guess, from an address new to wren, is refused even with the right password...
    expect((await at(address()).login('wren', PW)).status).toBe(429);
    // ... while wren, at home, logs in.
    expect((await home.login('wren', PW)).status).toBe(200);
  }, SLOW);

  it('counts an IPv6 client by its /64: changing the last bits does not reset the count', async () => {
    for (let i = 0; i < 20; i++) expect((await at(`2001:db8:7:7::${(i + 1).toString(16)}`).login(`ghost${i}`, 'wrong-password')).status).toBe(401);
    expect((await at('2001:db8:7:7:ffff::1').login('root', ROOT_PASSWORD)).status).toBe(429);
    expect((await at('::ffff:198.18.200.1').login('root', ROOT_PASSWORD)).status).toBe(200);
    expect((await at('2001:db8:7:8::1').login('root', ROOT_PASSWORD)).status).toBe(200);
  }, SLOW);
});

describe('group join (item 5)', () => {
  it('25 wrong group passwords in a row, then the right one: refused after the fifth', async () => {
    const owner = await signUp('gwen');
    expect((await owner.login('gwen', PW)).status).toBe(200);
    const groupPassword = String(((await owner.get('/api/user/info')).result!.settings as { groupPassword: string }).groupPassword);
    const mallory = await signUp('mallory');
    expect((await mallory.login('mallory', PW)).status).toBe(200);
    const tries: Answer[] = [];
    for (let i = 0; i < 25; i++) tries.push(await mallory.post('/api/user/group/join', { group: 'gwen', password: `Guess${i}xyz` }));
    expect(tries.slice(0, 5).map((a) => [a.status, a.error])).toEqual(Array(5).fill([403, 'Group not found or wrong password.']));
    expect(new Set(tries.slice(5).map((a) => a.status))).toEqual(new Set([429]));
    const right = await mallory.post('/api/user/group/join', { group: 'gwen', password: groupPassword });
    expect(right).toMatchObject({ status: 429, error: expect.stringMatching(/^Too many wrong group passwords\. Try again in \d+ minutes\.$/) });
    expect(right.retryAfter).toBeGreaterThan(0);
    expect((await t.server.accounts.groupsOf((await t.server.accounts.byUsername('mallory'))!.id)).map((g) => g.name)).toEqual(['mallory']);
    // Counted apart from logins: mallory still logs in. A friend elsewhere still joins.
    expect((await mallory.login('mallory', PW)).status).toBe(200);
    const friend = await signUp('gwenfriend');
    expect((await friend.login('gwenfriend', PW)).status).toBe(200);
    expect((await friend.post('/api/user/group/join', { group: 'gwen', password: groupPassword })).status).toBe(200);
  }, SLOW);

  it('spraying group passwords over many groups from one address stops at 20', async () => {
    const sprayer = await signUp('sprayer');
    expect((await sprayer.login('sprayer', PW)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await sprayer.post('/api/user/group/join', { group: `nogroup${i}`, password: 'Abcdefgh1234' })).status).toBe(403);
    expect((await sprayer.post('/api/user/group/join', { group: 'gwen', password: 'Abcdefgh1234' })).status).toBe(429);
  }, SLOW);

  it("refuses a weak group password one chooses ('mallory1'); a strong one, or a generated one, is kept", async () => {
    const owner = await signUp('hale');
    expect((await owner.login('hale', PW)).status).toBe(200);
    const weak = 'A group password you choose needs at least 12 characters, with lower-case and upper-case letters and digits. :user reset groupPassword makes a random one.';
    for (const value of ['mallory1', 'Mallory1', 'mallorymallory1', 'MALLORYMALLORY1', 'MalloryMallory']) {
      expect(await owner.post('/api/user/update/setting', { key: 'groupPassword', value }), value).toMatchObject({ status: 400, error: weak });
    }
    expect((await owner.post('/api/user/update/setting', { key: 'groupPassword', value: 'Tr0ubadorHorse9' })).status).toBe(200);
    const reset = await owner.post('/api/user/reset-setting', { key: 'groupPassword' });
    expect(reset.status).toBe(200);
    expect(String((reset.result!.settings as { groupPassword: string }).groupPassword)).toMatch(/^[A-Za-z0-9]{8}$/);
  }, SLOW);
});

describe('sign-up probes (item 6)', () => {
  it('30 sign-ups with taken names and addresses from one address: 10 answered, then none', async () => {
    await signUp('taken');
    const prober = at(address());
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) {
      const body = i % 2 ? { username: 'taken', email: `probe${i}@example.org`, password: PW } : { username: `probe${i}`, email: 'taken@example.org', password: PW };
      answers.push(await prober.post('/api/user/add', body));
    }
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(409));
    expect(answers.slice(0, 2).map((a) => a.error)).toEqual(['An account with this e-mail address already exists.', 'Username already exists.']);
    expect(answers.slice(10).map((a) => [a.status, a.error])).toEqual(Array(20).fill([429, 'Too many sign-ups from this address. Try again later.']));
    expect(answers[10]!.retryAfter).toBeGreaterThan(0);
    // A fresh sign-up from that address waits too; from another address it goes through.
    expect((await prober.post('/api/user/add', { username: 'fresh1', email: 'fresh1@example.org', password: PW })).status).toBe(429);
    await signUp('fresh2');
  }, SLOW);

  it('does not count mistakes that tell nothing (a malformed name), nor sign-ups that succeed', async () => {
    const person = at(address());
    for (let i = 0; i < 12; i++) expect((await person.post('/api/user/add', { username: `9bad${i}`, email: `bad${i}@example.org`, password: PW })).status).toBe(400);
    for (let i = 0; i < 12; i++) expect((await person.post('/api/user/add', { username: `okay${i}`, email: `okay${i}@example.org`, password: PW })).status).toBe(200);
  }, SLOW);
});

describe('what held, kept held', () => {
  it('a login or a group join tells nothing of whether the name exists, and guessing names is counted too', async () => {
    const from = at(address());
    await signUp('ivy', from);
    expect((await from.login('ivy', PW)).status).toBe(200);
    const wrong = await from.login('ivy', 'not-the-password');
    const unknown = await from.login('no-such-ivy', 'not-the-password');
    expect([wrong.status, wrong.error]).toEqual([401, 'Incorrect username or password.']);
    expect([unknown.status, unknown.error]).toEqual([wrong.status, wrong.error]);
    const noGroup = await from.post('/api/user/group/join', { group: 'no-such-group', password: 'Abcdefgh1234' });
    const badPassword = await from.post('/api/user/group/join', { group: 'gwen', password: 'Abcdefgh1234' });
    expect([noGroup.status, noGroup.error]).toEqual([403, 'Group not found or wrong password.']);
    expect([badPassword.status, badPassword.error]).toEqual([noGroup.status, noGroup.error]);
    // Names that do not exist count like any other failure: 18 more fill this address's 20.
    for (let i = 0; i < 18; i++) expect((await from.login(`no-such-${i}`, 'x-wrong-password')).status).toBe(401);
    expect((await from.login('ivy', PW)).status).toBe(429);
  }, SLOW);
});
