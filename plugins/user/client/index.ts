import { definePluginModule } from '../../../src/core/index.ts';
import { activateUser } from '../common/index.ts';

export default definePluginModule({ activate: activateUser });
