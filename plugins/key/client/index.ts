import { definePluginModule } from '../../../src/core/index.ts';
import { activateKey } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateKey(ctx) });
