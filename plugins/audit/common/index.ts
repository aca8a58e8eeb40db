// The audit plugin's command: `:audit` (root reads the trail; see ../server/index.ts).
import type { PluginContext } from '../../../src/core/index.ts';
import { readAudit } from './commands/audit.ts';

export * from './limits.ts';
export * from './messages.ts';

export function activateAudit(ctx: PluginContext): void {
  ctx.handle('audit', readAudit(ctx));
}
