import { text, type PluginContext } from '../../../src/core/index.ts';

export function activateStats(ctx: PluginContext): void {
  ctx.handle('stats', (c) => {
    const on = c.args.state === 'on';
    c.settings.set('useStats', on);
    return text(c.t(on ? 'msg.statsOn' : 'msg.statsOff'));
  });
  ctx.handle('eval', (c) => {
    const on = c.args.state === 'on';
    c.settings.set('useEval', on);
    return text(c.t(on ? 'msg.evalOn' : 'msg.evalOff'));
  });
}
