// Subscriptions (spec parts 2, 4, 6, 7, 8, 9): plans paid by the month, the balance topped up,
// both with PayPal, and the plus plan's gates. An operator who takes payments leaves it in
// app.config.ts and sets USE_SUBSCRIPTIONS; one who does not leaves it out.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'subscription',
  version: '1.0.0',
  pages: ['subscriptions'],
  commands: [
    { id: 'subscription', words: ['subscription'], aliases: [['sub']], group: 'user', needs: ['server', 'login'] },
    { id: 'subscription.ls', words: ['subscription', 'ls'], aliases: [['subscription', 'list'], ['sub', 'ls']], group: 'user', needs: ['server'] },
    {
      id: 'subscription.buy',
      words: ['subscription', 'buy'],
      aliases: [['sub', 'buy']],
      group: 'user',
      needs: ['server', 'login'],
      args: [{ name: 'plan' }],
    },
    {
      id: 'subscription.topup',
      words: ['subscription', 'topup'],
      aliases: [['sub', 'topup']],
      group: 'user',
      needs: ['server', 'login'],
      args: [{ name: 'amount', values: ['1', '5', '10', '20', '50'] }],
    },
  ],
});
