// Builds the app once for every browser test file, into its own folder.
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../bench/initialLoad.ts';

export const E2E_DIST = path.resolve(import.meta.dirname, '../../.tmp/e2e-dist');

export default async function setup(project: TestProject): Promise<void> {
  await buildApp(E2E_DIST);
  project.provide('distDir', E2E_DIST);
}

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}
