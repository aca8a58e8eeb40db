// `:session export [--all] [--format md|json] [<file>]`: this session's conversation (or all of
// one's own) from GET /api/archive/export; the environment saves it (download, file or output).
import { error, offlineError, PlatformRef, readAnswer, text, usageSaid, withApiErrors, type CommandHandler, type PluginContext } from '../../../../src/core/index.ts';
import type { ExportFormat } from '../api.ts';
import { MESSAGES } from '../messages.ts';
import type { ArchiveIo } from './io.ts';

export interface ExportOptions {
  all: boolean;
  format: ExportFormat;
  path?: string;
}

/** The words after `:session export`; undefined when they do not make sense. */
export function exportOptions(words: string | undefined): ExportOptions | undefined {
  const tokens = (words ?? '').split(/\s+/).filter(Boolean);
  const options: ExportOptions = { all: false, format: 'json' };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const lower = token.toLowerCase();
    if (lower === '--all' || lower === '-a') options.all = true;
    else if (lower === '--md' || lower === '--markdown') options.format = 'md';
    else if (lower === '--json') options.format = 'json';
    else if (lower === '--format' || lower.startsWith('--format=')) {
      const value = lower === '--format' ? tokens[++i]?.toLowerCase() : lower.slice('--format='.length);
      if (value === 'md' || value === 'markdown') options.format = 'md';
      else if (value === 'json') options.format = 'json';
      else return undefined;
    } else if (lower.startsWith('-') || options.path !== undefined) return undefined;
    else options.path = token;
  }
  // A file named .md without a format says which.
  if (options.path && /\.md$/i.test(options.path) && !tokens.some((t) => /^--(format|json)/i.test(t))) options.format = 'md';
  return options;
}

export const exportSessions =
  (ctx: PluginContext, io: ArchiveIo | undefined): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const options = exportOptions(c.args.options);
      if (!options || !io) return error(usageSaid(c));
      const api = ctx.services.get(PlatformRef).api;
      const query = new URLSearchParams({ format: options.format });
      if (options.all) query.set('all', '1');
      else query.set('session', String(c.settings.get<number>('session')));
      let response: Response;
      try {
        response = await api.fetch(`${api.baseUrl}/api/archive/export?${query}`, { credentials: 'same-origin' });
      } catch {
        throw offlineError();
      }
      // A refusal is the API's answer (JSON); the export itself is the body.
      if (response.status !== 200) await readAnswer(response);
      const suggested = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `shellchat.${options.format}`;
      try {
        const saved = await io.save(response, suggested, options.path);
        if (saved.shown !== undefined) return { kind: 'text', text: saved.shown };
        return text(MESSAGES.exported(saved.file ?? suggested));
      } catch (err) {
        return error(MESSAGES.cannotWrite(options.path ?? suggested, (err as Error).message));
      }
    });
