import { definePluginModule } from '../../../src/core/index.ts';
import { activateStore } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateStore(ctx) });
