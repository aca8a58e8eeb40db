import { definePluginModule } from '../../../src/core/index.ts';
import { activateAudit } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateAudit(ctx) });
