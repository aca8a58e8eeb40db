// `npm run docs:config`: writes docs/configuration.md from the environment's schema
// (src/server/env.ts); tests/contract/configuration.test.ts fails while the two differ.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configurationDoc } from '../src/server/env.ts';

writeFileSync(path.resolve(import.meta.dirname, '../docs/configuration.md'), configurationDoc());
console.log('docs/configuration.md written');
