// When sign-on is on, the operator may keep passwords for root (break-glass) and a few named
// accounts only, and close sign-up with a password: a gate in front of the account routes
// (the password login and the sign-up are the only ways in without the provider).
import type { Context } from 'hono';
import type { AppEnv, ServerPluginContext } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { SsoConfig } from './env.ts';

const PASSWORD_LOGIN = '/api/user/login';
const SIGN_UP = '/api/user/add';

async function bodyField(c: Context<AppEnv>, field: string): Promise<string> {
  // Hono keeps the parsed body: the route's own validation reads it again.
  const body: unknown = await c.req.json().catch(() => ({}));
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

export function localPasswordGates(ctx: ServerPluginContext, config: SsoConfig): void {
  if (config.providers.length === 0) return;
  ctx.addGate(async (c) => {
    if (c.req.method !== 'POST') return undefined;
    if (c.req.path === PASSWORD_LOGIN && config.localLogin !== 'everyone') {
      const username = await bodyField(c, 'username');
      if (username !== 'root' && !config.localLogin.includes(username)) return ctx.refuse(c, 403, MESSAGES.localLoginOff);
    }
    // Root (or anyone logged in whom the account route lets add people) still adds accounts.
    if (c.req.path === SIGN_UP && !config.localSignUp && !c.get('user')) return ctx.refuse(c, 403, MESSAGES.localSignUpOff);
    return undefined;
  });
}
