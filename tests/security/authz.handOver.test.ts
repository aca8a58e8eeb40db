// What a hand-over may do, beyond who may call the route (issue 27): whom a store or a node
// may be given to, by whom, and where it is seen afterwards. One rule serves both
// (src/server/recipients.ts): the system takes only what root gives it (root's stores are the
// system's, so root's account counts as the system for a store); a user gives to a group they
// belong to, or to a member of one of their groups, never to a stranger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nextSeq, startAuthzServer, stopAuthzServer, world, type Person, type World } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

type Kind = 'store' | 'node';
type Giver = 'owner' | 'root';
type Target = 'system' | 'root' | 'other' | 'member' | 'group:owner' | 'group:other';
/** Who ends up seeing it, and as what: the scope in each person's list, or absent. */
type Seen = Partial<Record<'owner' | 'other' | 'member', 'user' | 'group' | 'system' | undefined>>;

interface HandOverCase {
  giver: Giver;
  target: Target;
  status: number;
  error?: string;
  /** Where each person sees it afterwards (per kind where the two differ). */
  seen: Seen | Record<Kind, Seen>;
}

// Kept by its owner: a user's store is shared with the owner's group, a user's node is not.
const KEPT = { store: { owner: 'user', other: undefined, member: 'group' }, node: { owner: 'user', other: undefined, member: undefined } } satisfies Record<Kind, Seen>;
// The giver's own store or node is given; `member` joined the owner's group, `other` did not.
// A store belongs to a user and is shared with that user's group, so given to a group it goes
// to the group's owner; a node belongs to the group itself.
const CASES: HandOverCase[] = [
  { giver: 'owner', target: 'system', status: 403, error: 'Only root can give to the system.', seen: KEPT },
  { giver: 'owner', target: 'root', status: 403, error: 'Only root can give to the system.', seen: KEPT },
  { giver: 'owner', target: 'other', status: 403, seen: KEPT },
  { giver: 'owner', target: 'group:other', status: 404, seen: KEPT },
  { giver: 'owner', target: 'member', status: 200, seen: { owner: undefined, other: undefined, member: 'user' } },
  {
    giver: 'owner',
    target: 'group:owner',
    status: 200,
    seen: { store: KEPT.store, node: { owner: 'group', other: undefined, member: 'group' } },
  },
  { giver: 'root', target: 'system', status: 200, seen: { owner: 'system', other: 'system', member: 'system' } },
  { giver: 'root', target: 'other', status: 200, seen: { owner: undefined, other: 'user', member: undefined } },
];

/** What the giver, in a fresh world, types as the target. */
function targetName(w: World, target: Target): string {
  if (target === 'system' || target === 'root') return target;
  if (target === 'group:owner') return `group:${w.owner.username}`;
  if (target === 'group:other') return `group:${w.other.username}`;
  return w[target].username;
}

async function create(kind: Kind, owner: Person): Promise<string> {
  const name = `${kind}-${nextSeq()}`;
  const res = await call('POST', `/api/${kind}/add`, owner.token, { body: kind === 'store' ? { name, engine: 'file' } : { name } });
  expect(res.status).toBe(200);
  return name;
}

/** The scope under which `who` sees the object named `name`, or undefined. */
async function scopeFor(kind: Kind, who: Person, name: string): Promise<string | undefined> {
  const res = await call('GET', `/api/${kind}/list`, who.token);
  expect(res.status).toBe(200);
  const result = res.json?.result as Record<string, { name: string }[]>;
  return (['user', 'group', 'system'] as const).find((scope) => (result[`${scope}_${kind}s`] ?? []).some((x) => x.name === name));
}

describe.each(['store', 'node'] as const)('handing over a %s', (kind) => {
  it.each(CASES)('$giver gives to $target: $status', async ({ giver, target, status, error, seen }) => {
    const w = await world();
    const name = await create(kind, w[giver]);
    const res = await call('POST', `/api/${kind}/update/${name}/owner`, w[giver].token, { body: { owner: targetName(w, target) } });
    expect({ status: res.status, error: res.status >= 400 ? res.json?.error : undefined }).toMatchObject({ status, ...(error ? { error } : {}) });
    const expected = 'store' in seen ? (seen as Record<Kind, Seen>)[kind] : (seen as Seen);
    for (const who of ['owner', 'other', 'member'] as const) expect([who, await scopeFor(kind, w[who], name)]).toEqual([who, expected[who]]);
  });
});
