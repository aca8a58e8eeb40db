// `:login` (logging in again as the same user resets the session too, spec part 4) and `:logout`.
import { ApiError, error, resetSession, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { parseLoginOptions } from '../rules.ts';
import type { UserAccess } from './shared.ts';

export const logIn =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const options = parseLoginOptions(c.args.options);
      if ('error' in options) return error(options.error);
      const wasLoggedIn = !!c.settings.get<string>('user');
      const answer = await send(
        api.login.$post({ json: { username: c.args.username ?? '', password: c.args.password ?? '', expiresIn: options.expiresIn } }),
      );
      const user = answer.result.user;
      sync.loggedIn(user);
      // Logging in again as the same user resets the session too (spec part 4).
      if (wasLoggedIn) resetSession(c.settings);
      // The server's words, by code: said in the account's language, which the login just set.
      return text(saidIn(answer));
    });

export const logOut =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      if (!c.settings.get<string>('user')) {
        // Also clears a cookie the browser may still hold.
        await send(api.logout.$post({ json: {} })).catch(() => undefined);
        return error(c.t('msg.notLoggedIn'));
      }
      await send(api.logout.$post({ json: { username: c.settings.get<string>('user') } })).catch((e: unknown) => {
        if (!(e instanceof ApiError) || e.status !== 401) throw e;
      });
      sync.loggedOut();
      return text(c.t('msg.loggedOut'));
    });
