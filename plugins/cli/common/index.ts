import { error, text, TerminalRef, type Edited, type PluginContext, type Translate } from '../../../src/core/index.ts';

/** How the editor failed, in one line: nothing is sent then. */
function editorFailed(t: Translate, failed: Extract<Edited, { ok: false }>): string {
  const { editor } = failed;
  if (failed.status === 127) return t('msg.editorNotFound', { editor });
  if (failed.signal) return t('msg.editorKilled', { editor, signal: failed.signal });
  if (failed.error) return t('msg.editorFailedToStart', { editor, error: failed.error });
  return t('msg.editorFailed', { editor, status: failed.status });
}

export function activateCli(ctx: PluginContext): void {
  // `:edit [text]`: a multi-line question or command written in the user's editor, then sent.
  ctx.handle('edit', async (c) => {
    const terminal = ctx.services.get(TerminalRef);
    const edited = await terminal.edit(String(c.args.text ?? ''));
    if (!edited.ok) return error(editorFailed(c.t, edited));
    const written = edited.text.trim();
    if (!written) return text(c.t('msg.editEmpty'));
    terminal.queue(written);
    return [];
  });
  ctx.handle('exit', () => {
    ctx.services.get(TerminalRef).exit();
    return [];
  });
}
