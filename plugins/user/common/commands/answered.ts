// The user commands the server answers in full, said as it says them: a new password or
// e-mail address, a password reset, joining or leaving a group, an invitation.
import { saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import type { UserAccess } from './shared.ts';

export const setPassword =
  ({ api }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(api.update.password.$post({ json: { password: c.args.password ?? '' } })))));

export const setEmail =
  ({ api }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(api.update.email.$post({ json: { email: c.args.email ?? '' } })))));

export const resetPassword =
  ({ api }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(api['reset-password'].$post({ json: { username: c.args.username ?? '', email: c.args.email ?? '' } })))));

export const joinGroup =
  ({ api }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(api.group.join.$post({ json: { group: c.args.group ?? '', password: c.args.password ?? '' } })))));

export const leaveGroup =
  ({ api }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(api.group.leave.$post({ json: { group: c.args.group ?? '' } })))));

/** hono's client does not encode path parameters. */
export const inviteByEmail =
  ({ invite }: UserAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => text(saidIn(await send(invite[':email'].$get({ param: { email: encodeURIComponent(c.args.email ?? '') } })))));
