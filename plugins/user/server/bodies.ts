// Request schemas of the user API (spec part 7, User), checked by its routes (the clients' types
// come from the routes). zod is imported on the server only, so it stays out of the first paint.
import { z } from 'zod';

const text = (max: number) => z.string().max(max);

export const loginBody = z.object({
  username: text(64).min(1),
  password: text(256).min(1),
  expiresIn: text(16).optional(),
});
export const logoutBody = z.object({ username: text(64).optional() });
export const addUserBody = z.object({
  username: text(64).min(1),
  email: text(254).min(1),
  password: text(256).optional(),
  settings: text(8192).optional(),
});
export const deleteUserBody = z.object({ username: text(64).min(1) });
export const updateSettingBody = z.object({ key: text(64).min(1), value: z.union([text(4096), z.number(), z.boolean()]) });
export const resetSettingBody = z.object({ key: text(64).min(1) });
export const updatePasswordBody = z.object({ password: text(256).min(1) });
export const updateEmailBody = z.object({ email: text(254).min(1) });
export const resetPasswordBody = z.object({ username: text(64).min(1), email: text(254).min(1) });
export const groupJoinBody = z.object({ group: text(64).min(1), password: text(256).min(1) });
export const groupLeaveBody = z.object({ group: text(64).min(1) });
export const updateBalanceBody = z.object({ amount: z.number().finite(), details: text(1024).optional(), username: text(64).optional() });
export const updateRoleBody = z.object({
  role: z.enum(['user', 'plus_user', 'super_user', 'root_user']),
  username: text(64).optional(),
  expires_at: z.number().int().nullable().optional(),
});
export const emailSubscriptionQuery = z.object({
  email: text(254).min(1),
  email_subscription: z.enum(['0', '1']),
  sig: text(128).optional(),
});
export const tokenQuery = z.object({ token: text(128).min(1) });
