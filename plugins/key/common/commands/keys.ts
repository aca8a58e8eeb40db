// The key commands on top of the typed API client: they run in the browser and the CLI alike;
// the server decides whose keys one sees and keeps only their hashes.
import { error, PlatformRef, saidIn, send, text, typedClient, withApiErrors, type CommandHandler, type PluginContext } from '../../../../src/core/index.ts';
import type { KeyRoutes } from '../../server/index.ts';
import type { PublicKey } from '../api.ts';
import { MESSAGES } from '../messages.ts';
import { checkKeyName, parseAddFlags } from '../rules.ts';

const day = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().slice(0, 10));

export function keyCommands(ctx: PluginContext) {
  const api = typedClient<KeyRoutes>(ctx.services.get(PlatformRef).api).api.key;

  const add: CommandHandler = (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const problem = checkKeyName(name);
      if (problem) return error(problem);
      const flags = parseAddFlags((c.args.flags ?? '').split(' ').filter(Boolean));
      if (!flags.ok) return error(flags.error);
      const answer = await send(api.add.$post({ json: { name, ...flags.value } }));
      // The key itself, on a line of its own, to copy: it is never shown again.
      return [text(saidIn(answer) || MESSAGES.created(name)), text(answer.result.key), { kind: 'json', value: answer.result }];
    });

  const list: CommandHandler = (c) =>
    withApiErrors(async () => {
      const keys: PublicKey[] = (await send(api.list.$get())).result.keys;
      if (!keys.length) return text(MESSAGES.none);
      const owners = keys.some((k) => k.owner !== undefined);
      const scope = (k: PublicKey) =>
        [k.role && `role ${k.role}`, k.stores && `store ${k.stores}`, k.model && `model ${k.model}`, k.expires_at !== null && `${c.t('list.expires')} ${day(k.expires_at)}`, k.no_log && 'no-log'].filter(Boolean).join(', ') || '-';
      return {
        kind: 'table',
        columns: [...(owners ? [c.t('list.owner')] : []), c.t('list.name'), c.t('list.prefix'), c.t('list.scope'), c.t('list.created'), c.t('list.lastUsed'), c.t('list.tokens'), c.t('list.fees')],
        rows: keys.map((k) => [
          ...(owners ? [k.owner ?? ''] : []),
          k.name,
          `${k.prefix}...`,
          scope(k),
          day(k.created_at),
          day(k.last_used_at),
          String(k.month_tokens),
          `$${k.month_fees.toFixed(4)}`,
        ]),
      };
    });

  const remove: CommandHandler = (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api.delete.$post({ json: { name } }));
      return text(saidIn(answer) || MESSAGES.removed(name));
    });

  return { add, list, remove };
}
