// The audit trail (issue 41 item 2): one row per change of role, balance, plan, group, owner or
// sharing, key, sign-on link, root action or payment credited, kept by listening to the core's
// audit hook (ctx.audit). The app only appends to it; root reads it with `:audit`.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'audit',
  version: '1.0.0',
  commands: [
    {
      id: 'audit',
      words: ['audit'],
      // Listed with the user commands root uses to change accounts (the spec's help groups are fixed).
      group: 'user',
      needs: ['server', 'login'],
      // Filters as words: user=<name> kind=<kind or prefix.*> since=<date|24h|7d> until=<...> limit=<n>.
      args: [{ name: 'filters', optional: true, rest: true, display: '[user=<name>] [kind=<kind>] [since=<time>] [until=<time>] [limit=<n>]' }],
    },
  ],
});
