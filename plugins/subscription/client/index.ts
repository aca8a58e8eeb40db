// Browser entry of the subscription plugin: the commands, and the Subscriptions page (page.ts).
import { definePluginModule } from '../../../src/core/index.ts';
import { activateSubscription } from '../common/index.ts';
import { subscriptionsPage } from './page.ts';

export default definePluginModule({
  activate: (ctx) => {
    activateSubscription(ctx);
    ctx.page('subscriptions', subscriptionsPage(ctx));
  },
});
