// `:audit [user=<name>] [kind=<kind>] [since=<time>] [until=<time>] [limit=<n>]`: root reads the
// audit trail, newest first, as a table (before and after as compact JSON).
import { error, PlatformRef, send, text, typedClient, withApiErrors, type CommandHandler, type PluginContext } from '../../../../src/core/index.ts';
import type { AuditRoutes } from '../../server/index.ts';
import { parseFilters } from '../filters.ts';
import { MESSAGES } from '../messages.ts';

const shown = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));
const when = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 19);

export function readAudit(ctx: PluginContext): CommandHandler {
  const api = typedClient<AuditRoutes>(ctx.services.get(PlatformRef).api).api.audit;
  return (c) =>
    withApiErrors(async () => {
      const filters = parseFilters(c.args.filters ?? '', Date.now());
      if (!filters.ok) return error(filters.error);
      const query = Object.fromEntries(Object.entries(filters.query).map(([k, v]) => [k, String(v)]));
      const { entries } = (await send(api.$get({ query }))).result;
      if (!entries.length) return text(MESSAGES.none);
      return {
        kind: 'table',
        columns: ['time', 'actor', 'kind', 'target', 'before', 'after', 'from'].map((k) => c.t(`table.${k}`)),
        rows: entries.map((e) => [when(e.at), e.actor ?? '', e.kind, e.target ?? '', shown(e.before), shown(e.after), e.address ?? '']),
      };
    });
}
