// An account itself: `:user` (its details), `:user add` (signing up, or root adding one),
// `:user del`.
import { effect, formatRoleExpiry, saidIn, send, text, withApiErrors, type CommandContext, type CommandHandler, type Output, type PublicUser } from '../../../../src/core/index.ts';
import type { UserAccess } from './shared.ts';

export function userTable(c: CommandContext, user: PublicUser): Output {
  const rows: [string, string][] = [
    [c.t('info.username'), user.username],
    [c.t('info.email'), `${user.email}${user.email_verified ? '' : ` (${c.t('info.unverified')})`}`],
    [c.t('info.role'), user.role],
    [c.t('info.expires'), user.role_expires_at == null ? c.t('info.unlimited') : formatRoleExpiry(user.role_expires_at)],
    [c.t('info.balance'), `$${user.balance}`],
    ...(user.usage !== undefined ? [[c.t('info.usage'), `$${user.usage}`] as [string, string]] : []),
    [c.t('info.groups'), user.groups.join(', ')],
    [c.t('info.groupPassword'), String(user.settings.groupPassword)],
    [c.t('info.created'), new Date(user.created_at).toISOString().slice(0, 10)],
    // What other plugins say of the account (a linked sign-on identity), each label in its namespace.
    ...(user.profile ?? []).map((line): [string, string] => [c.tFor(line.ns)(line.label), line.value]),
  ];
  return { kind: 'table', columns: [c.t('info.item'), c.t('info.value')], rows };
}

export const showUser =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const user = (await send(api.info.$get())).result;
      sync.apply(user.settings);
      await c.loadNamespaces([...new Set((user.profile ?? []).map((line) => line.ns))]);
      return userTable(c, user);
    });

export const addUser =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const signingUp = !c.settings.get<string>('user');
      const answer = await send(
        api.add.$post({
          json: {
            username: c.args.username ?? '',
            email: c.args.email ?? '',
            ...(c.args.password ? { password: c.args.password } : {}),
            settings: JSON.stringify(sync.localSettings()),
          },
        }),
      );
      // Someone who signs up is not logged in yet: the next step, on a line below (it was
      // 'Please login.' at the next command, with no word of how).
      if (!signingUp) return text(saidIn(answer));
      return [text(saidIn(answer)), effect({ type: 'notice', text: c.t('msg.loginNext', { username: answer.result.user.username }) })];
    });

export const deleteUser =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const answer = await send(api.delete.$post({ json: { username: c.args.username ?? '' } }));
      if ((c.args.username ?? '').toLowerCase() === c.settings.get<string>('user')) sync.loggedOut();
      return text(saidIn(answer));
    });
