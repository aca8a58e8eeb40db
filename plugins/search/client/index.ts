// Browser and terminal entry of the search plugin: the common handlers (the server does the work).
import { definePluginModule } from '../../../src/core/index.ts';
import { activateSearch } from '../common/index.ts';

export default definePluginModule({ activate: (ctx) => activateSearch(ctx) });
