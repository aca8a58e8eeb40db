import { definePluginModule } from '../../../src/core/index.ts';
import { activateSubscription } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateSubscription(ctx) });
