// Who a sign-on is: the account linked to (provider, subject), else one linked now by a
// verified e-mail address or by `:user sso link`, else a new account when sign-up is open.
// Then the operator's group rules, applied again at every sign-on.
import type { Context } from 'hono';
import type { AppEnv, Message, RoleName, ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import { rankOf } from '../../../src/core/roles.ts';
import { MESSAGES } from '../common/messages.ts';
import type { Provider, SsoConfig } from './env.ts';
import type { SsoDb } from './table.ts';

export interface Claims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  preferred_username?: unknown;
  [claim: string]: unknown;
}

export type Resolved = { user: UserRow; linkedNow: boolean } | { refused: Message; outcome: string };

export function identities(ctx: ServerPluginContext, config: SsoConfig) {
  const db = ctx.db as unknown as SsoDb;

  async function link(c: Context<AppEnv>, provider: Provider, claims: Claims, user: UserRow, how: string): Promise<void> {
    const now = ctx.now();
    await db
      .insertInto('sso_identities')
      .values({ provider: provider.name, subject: claims.sub, user_id: user.id, email: String(claims.email ?? ''), mapped_role: null, mapped_groups: '[]', created_at: now, last_login_at: now })
      .execute();
    ctx.audit.record(c, { kind: 'sso.link', target: `user:${user.username}`, after: { provider: provider.name, subject: claims.sub, how }, actorId: user.id, actor: user.username });
  }

  /** A free username from the provider's preferred name or the e-mail's local part. */
  async function freeUsername(claims: Claims, email: string): Promise<string> {
    const wanted = String(claims.preferred_username ?? email.split('@')[0] ?? 'user').toLowerCase();
    let base = wanted.replace(/[^a-z0-9_-]/g, '').replace(/^[^a-z]+/, '').slice(0, 24);
    if (!base || base === 'root') base = `user${base}`;
    for (let n = 0; n < 50; n++) {
      const name = n === 0 ? base : `${base}${n + 1}`;
      if (!(await ctx.accounts.byUsername(name))) return name;
    }
    return `${base}${Date.now().toString(36)}`;
  }

  return {
    async resolve(c: Context<AppEnv>, provider: Provider, claims: Claims, linkUserId: number | null): Promise<Resolved> {
      const known = await db.selectFrom('sso_identities').selectAll().where('provider', '=', provider.name).where('subject', '=', claims.sub).executeTakeFirst();
      if (linkUserId !== null) {
        const user = await db.selectFrom('users').selectAll().where('id', '=', linkUserId).executeTakeFirst();
        if (!user) return { refused: MESSAGES.flowUnknown, outcome: 'flowUnknown' };
        if (known && known.user_id !== user.id) return { refused: MESSAGES.linkedElsewhere, outcome: 'linkedElsewhere' };
        if (!known) await link(c, provider, claims, user, 'command');
        return { user, linkedNow: true };
      }
      if (known) {
        const user = await db.selectFrom('users').selectAll().where('id', '=', known.user_id).executeTakeFirst();
        if (user) return { user, linkedNow: false };
      }
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email) return { refused: MESSAGES.noEmail, outcome: 'noEmail' };
      const holder = await ctx.accounts.byEmail(email);
      if (holder) {
        // Only a verified address links (a provider that lets anyone type any address would
        // otherwise hand out accounts), and never root's: root keeps its local login.
        if (claims.email_verified !== true || holder.username === 'root') return { refused: MESSAGES.emailUnverified(email), outcome: 'emailUnverified' };
        await link(c, provider, claims, holder, 'verified e-mail');
        return { user: holder, linkedNow: true };
      }
      if (!config.signUp) return { refused: MESSAGES.signUpClosed, outcome: 'signUpClosed' };
      // The generated password is never shown: the account signs on through the provider.
      const { user } = await ctx.accounts.create({ username: await freeUsername(claims, email), email });
      if (claims.email_verified === true) await db.updateTable('users').set({ email_verified: 1 }).where('id', '=', user.id).execute();
      await link(c, provider, claims, user, 'sign-up');
      ctx.log.info({ username: user.username, provider: provider.name }, 'user added by sign-on');
      return { user, linkedNow: true };
    },

    /** The provider's groups → roles and groups, by the rules; what a rule gave before and gives no more is taken back. */
    async applyRules(c: Context<AppEnv>, provider: Provider, claims: Claims, user: UserRow): Promise<void> {
      const raw = claims[provider.groupsClaim];
      const held = new Set(Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : []);
      const matching = provider.rules.filter((r) => held.has(r.claim));
      const row = await db.selectFrom('sso_identities').selectAll().where('provider', '=', provider.name).where('subject', '=', claims.sub).executeTakeFirstOrThrow();
      const roles = matching.flatMap((r) => ('role' in r ? [r.role] : []));
      const role = roles.sort((a, b) => rankOf(b) - rankOf(a))[0] ?? null;
      const isRoot = user.username === 'root' || user.role === 'root_user';
      if (!isRoot) {
        if (role && role !== user.role && (user.role === row.mapped_role || user.role === 'user' || rankOf(role) > rankOf(user.role))) {
          await ctx.accounts.setRole(user, role as RoleName, null);
          ctx.audit.record(c, { kind: 'user.role', target: `user:${user.username}`, before: user.role, after: role, actorId: user.id, actor: user.username });
        } else if (!role && row.mapped_role && user.role === row.mapped_role) {
          await ctx.accounts.setRole(user, 'user', null);
          ctx.audit.record(c, { kind: 'user.role', target: `user:${user.username}`, before: user.role, after: 'user', actorId: user.id, actor: user.username });
        }
      }
      const wanted = [...new Set(matching.flatMap((r) => ('group' in r ? [r.group.toLowerCase()] : [])))];
      const before: string[] = JSON.parse(row.mapped_groups) as string[];
      const given: string[] = [];
      for (const name of wanted) {
        const group = await db.selectFrom('groups').select(['id']).where('name', '=', name).executeTakeFirst();
        if (!group) {
          ctx.log.warn({ provider: provider.name, group: name }, 'sso rule names a group that does not exist');
          continue;
        }
        given.push(name);
        const member = await db.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).where('user_id', '=', user.id).executeTakeFirst();
        if (!member) {
          await db.insertInto('group_members').values({ group_id: group.id, user_id: user.id, created_at: ctx.now() }).execute();
          ctx.audit.record(c, { kind: 'group.join', target: `group:${name}`, after: user.username, actorId: user.id, actor: user.username });
        }
      }
      for (const name of before.filter((g) => !wanted.includes(g))) {
        const group = await db.selectFrom('groups').select(['id', 'owner_id']).where('name', '=', name).executeTakeFirst();
        if (!group || group.owner_id === user.id) continue;
        await db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', user.id).execute();
        ctx.audit.record(c, { kind: 'group.leave', target: `group:${name}`, before: user.username, actorId: user.id, actor: user.username });
      }
      await db
        .updateTable('sso_identities')
        .set({ mapped_role: isRoot ? null : role, mapped_groups: JSON.stringify(given), last_login_at: ctx.now(), email: String(claims.email ?? row.email) })
        .where('provider', '=', provider.name)
        .where('subject', '=', claims.sub)
        .execute();
    },
  };
}
