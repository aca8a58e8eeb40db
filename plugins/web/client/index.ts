// Browser and terminal entry of the web plugin: the common handlers (the server does the work).
import { definePluginModule } from '../../../src/core/index.ts';
import { activateWeb } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateWeb(ctx) });
