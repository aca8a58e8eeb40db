import { effect, text, type CommandHandler } from '../../../src/core/index.ts';

export const viewCommands: Record<string, CommandHandler> = {
  stop: (ctx) => {
    ctx.events.emit('generation:stop', undefined);
    ctx.events.emit('speak:cancel', undefined);
    return effect({ type: 'stop' });
  },
  clear: () => effect({ type: 'clear' }),
  // A change says what it did, and takes the place of the last output (which would otherwise
  // stay, as if nothing had happened).
  fullscreen: (ctx) => {
    ctx.settings.set('fullscreen', ctx.args.mode ?? 'default');
    return text(ctx.t('msg.fullscreen', { mode: ctx.settings.get('fullscreen') }));
  },
  split: (ctx) => {
    ctx.settings.set('fullscreen', 'split');
    return text(ctx.t('msg.fullscreen', { mode: 'split' }));
  },
  theme: (ctx) => {
    if (ctx.args.theme) ctx.settings.set('theme', ctx.args.theme);
    return text(ctx.t('msg.theme', { theme: ctx.settings.get('theme') }));
  },
  stream: (ctx) => {
    const on = ctx.args.state === 'on';
    ctx.settings.set('useStream', on);
    return text(ctx.t(on ? 'msg.streamOn' : 'msg.streamOff'));
  },
};
