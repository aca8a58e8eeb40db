// One app-config loader (issue 35): the build, the server and the terminal client each found
// SHELLCHAT_APP_CONFIG on their own, one of them relative to its own module. Only the loader
// (and the environment's schema, which documents the variable) may read it now.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/shellTester.ts';

const sources = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });

describe('the app config', () => {
  it('is found by one loader, src/server/appConfig.ts', () => {
    const readers = [...sources('src'), ...sources('scripts'), ...sources('plugins'), 'vite.config.ts']
      .filter((file) => readFileSync(path.join(ROOT, file), 'utf8').includes('SHELLCHAT_APP_CONFIG'));
    expect(readers.sort()).toEqual(['src/server/appConfig.ts', 'src/server/config.ts', 'src/server/env.ts']);
  });
});
