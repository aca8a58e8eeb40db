import { definePluginModule } from '../../../src/core/index.ts';
import { activateRole } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateRole(ctx) });
