import { text, TerminalRef, type PluginContext } from '../../../src/core/index.ts';

export function activateCli(ctx: PluginContext): void {
  // `:edit [text]`: a multi-line question or command written in the user's editor, then sent.
  ctx.handle('edit', async (c) => {
    const terminal = ctx.services.get(TerminalRef);
    const written = (await terminal.edit(String(c.args.text ?? '')))?.trim();
    if (!written) return text(c.t('msg.editEmpty'));
    terminal.queue(written);
    return [];
  });
  ctx.handle('exit', () => {
    ctx.services.get(TerminalRef).exit();
    return [];
  });
}
