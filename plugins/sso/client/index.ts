import { definePluginModule } from '../../../src/core/index.ts';
import { activateSso } from '../common/index.ts';

export default definePluginModule({ activate: activateSso });
