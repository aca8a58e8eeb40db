import { definePluginModule } from '../../../src/core/index.ts';
import { activateSession } from '../common/index.ts';

export default definePluginModule({ activate: activateSession });
