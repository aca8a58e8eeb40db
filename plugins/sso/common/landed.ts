// Logged in by a sign-on: the shell takes the account (name and kept settings), as the user
// plugin's login does; back from the provider (`?sso=done`), the page asks what came of it.
import { keptSettings, saidIn, send, text, withApiErrors, type Output, type PluginContext, type PublicUser } from '../../../src/core/index.ts';
import type { SsoApi } from './index.ts';

export function applyUser(ctx: PluginContext, user: PublicUser): void {
  ctx.settings.set('user', user.username);
  for (const { key } of keptSettings(ctx.settings.specs())) if (key in user.settings) ctx.settings.set(key, user.settings[key] as never);
}

/** Back from the provider (`?sso=done`): the account the browser is now logged in to, or why not. */
export async function landed(ctx: PluginContext, api: SsoApi): Promise<void> {
  const location = globalThis.location as Location | undefined;
  if (!location || new URLSearchParams(location.search).get('sso') !== 'done') return;
  globalThis.history?.replaceState(null, '', location.pathname + location.hash);
  const outputs = await withApiErrors(async (): Promise<Output[]> => {
    const answer = await send(api.outcome.$get());
    applyUser(ctx, answer.result.user as PublicUser);
    return [text(saidIn(answer))];
  });
  ctx.events.emit('output', Array.isArray(outputs) ? outputs : [outputs]);
}
