import { definePluginModule } from '../../../src/core/index.ts';
import { activateNode } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateNode(ctx) });
