// `:login sso` in the terminal: the device authorization grant through the server (which holds
// the client secret). The terminal shows where to go and the code, then polls the server at the
// interval it says until the person has signed on at the provider, or the code expires.
import { resetSession, saidIn, translateMessage, send, text, type CommandContext, type HandlerResult, type PluginContext } from '../../../src/core/index.ts';
import type { SsoApi } from './index.ts';
import { applyUser } from './landed.ts';
import { MESSAGES } from './messages.ts';

/** Waits `ms`, or rejects when the command is interrupted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

export async function deviceLogin(ctx: PluginContext, api: SsoApi, c: CommandContext, provider: string): Promise<HandlerResult> {
  const started = (await send(api.device.$post({ json: { provider } }))).result;
  // The code is shown now (in the person's language: it is not a command's result, which the
  // host translates): the command ends only when the person has entered it.
  const go = MESSAGES.deviceGo(started.verificationUriComplete ?? started.verificationUri, started.userCode);
  ctx.events.emit('output', [text({ ...go.toData(), text: translateMessage(go, c.tFor) })]);
  const wasLoggedIn = !!c.settings.get<string>('user');
  let interval = started.interval;
  // The server says when the code expired; this bound only keeps a silent server from holding the terminal.
  const until = Date.now() + (started.expiresIn + 60) * 1000;
  while (Date.now() < until) {
    await pause(interval * 1000, c.signal);
    const answer = await send(api.device.poll.$post({ json: { handle: started.handle } }));
    if (answer.result.user) {
      applyUser(ctx, answer.result.user);
      if (wasLoggedIn) resetSession(c.settings);
      return text(saidIn(answer));
    }
    interval = answer.result.interval;
  }
  return text(MESSAGES.deviceExpired);
}
