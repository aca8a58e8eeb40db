import { definePluginModule, PlatformRef } from '../../../src/core/index.ts';
import { activateModel } from '../common/index.ts';
import { ollama } from './ollama.ts';

export default definePluginModule({ activate: (ctx) => activateModel(ctx, ollama(ctx.services.maybe(PlatformRef))) });
