// Handlers of the key commands (commands.ts), registered with the plugin host.
import type { PluginContext } from '../../../src/core/index.ts';
import { keyCommands } from './commands/keys.ts';

export * from './api.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

export function activateKey(ctx: PluginContext): void {
  const { add, list, remove } = keyCommands(ctx);
  ctx.handle('key.add', add);
  ctx.handle('key.ls', list);
  ctx.handle('key.rm', remove);
}
