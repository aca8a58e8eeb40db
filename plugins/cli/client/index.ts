import { definePluginModule } from '../../../src/core/index.ts';
import { activateCli } from '../common/index.ts';

export default definePluginModule({ activate: activateCli });
