import { definePluginModule } from '../../../src/core/index.ts';
import { activateStats } from '../common/index.ts';

export default definePluginModule({ activate: activateStats });
