// The account's saved settings (the local ones follow the answer): `:user set`, `:user reset`,
// `:user reset settings`, and the Settings page's e-mail subscription.
import { error, saidIn, send, text, USER_SETTING_MESSAGES, withApiErrors, type CommandHandler, type SettingSetter } from '../../../../src/core/index.ts';
import type { UserAccess } from './shared.ts';

export const setUserSetting =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const answer = await send(api.update.setting.$post({ json: { key: c.args.key ?? '', value: c.args.value ?? '' } }));
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    });

export const resetUserSetting =
  ({ api, sync }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const answer = await send(api['reset-setting'].$post({ json: { key: c.args.key ?? '' } }));
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    });

export const resetUserSettings =
  ({ api, sync }: UserAccess): CommandHandler =>
  () =>
    withApiErrors(async () => {
      const answer = await send(api['reset-settings'].$post());
      sync.apply(answer.result.settings);
      return text(saidIn(answer));
    });

/** The Settings page's subscribe and unsubscribe: the account's own address, through the API. */
export const setEmailSubscription =
  ({ api }: UserAccess): SettingSetter =>
  (value, c) =>
    withApiErrors(async () => {
      const on = value.trim() === 'on';
      if (!on && value.trim() !== 'off') return error(USER_SETTING_MESSAGES.settingOneOf('on, off'));
      const me = (await send(api.info.$get())).result;
      const answer = await send(api.update['email-subscription'].$get({ query: { email: me.email, email_subscription: on ? '1' : '0' } }));
      c.settings.set('emailSubscription', on ? 'on' : 'off');
      return text(saidIn(answer));
    });
