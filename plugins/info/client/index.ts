import { definePluginModule } from '../../../src/core/index.ts';
import { activateInfo } from '../common/index.ts';

export default definePluginModule({ activate: activateInfo });
