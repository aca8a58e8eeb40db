// Every client's entry of the user plugin: the commands, and the Usage page (usagePage.ts).
import { definePluginModule } from '../../../src/core/index.ts';
import { activateUser } from '../common/index.ts';
import { usagePage } from './usagePage.ts';

export default definePluginModule({
  activate: async (ctx) => {
    ctx.page('usage', usagePage(ctx));
    await activateUser(ctx);
  },
});
