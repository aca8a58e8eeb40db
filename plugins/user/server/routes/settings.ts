// The saved settings of an account: one set, one reset, all reset.
import { Hono } from 'hono';
import { type AppEnv } from '../../../../src/core/index.ts';
import { resetSettingBody, updateSettingBody } from '../bodies.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { UserRouteDeps } from './deps.ts';

export const settingsRoutes = ({ accounts, validate, requireUser, answer, me, attempt }: UserRouteDeps) =>
  new Hono<AppEnv>()
    .post('/api/user/update/setting', requireUser, validate('json', updateSettingBody), (c) =>
      attempt(c, async () => {
        const { key, value } = c.req.valid('json');
        return answer(c, { settings: await accounts.updateSetting(me(c), key, value) }, MESSAGES.settingUpdated);
      }),
    )
    .post('/api/user/reset-setting', requireUser, validate('json', resetSettingBody), (c) =>
      attempt(c, async () => answer(c, { settings: await accounts.resetSetting(me(c), c.req.valid('json').key) }, MESSAGES.settingReset)),
    )
    .post('/api/user/reset-settings', requireUser, async (c) => answer(c, { settings: await accounts.resetSettings(me(c)) }, MESSAGES.settingsReset));
