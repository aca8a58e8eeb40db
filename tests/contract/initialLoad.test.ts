// The initial-load budget of the shell issue, checked on every run (bytes, not time, so it is
// deterministic): the first paint's JavaScript stays within 150 KB gzip and 1.6x a bare
// Vite + React page built in the same run, with no KaTeX, Prism or plugin browser code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp, buildBare, forbiddenInInitial, initialGraph } from '../../bench/initialLoad.ts';

describe('initial load budget', () => {
  it('stays within 150 KB gzip and 1.6x the bare page', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-budget-'));
    // One after the other: the builds change process.env while they run.
    await buildBare(path.join(dir, 'bare'));
    await buildApp(path.join(dir, 'app'));
    const app = initialGraph(path.join(dir, 'app'));
    const bare = initialGraph(path.join(dir, 'bare'));
    expect(forbiddenInInitial(app)).toEqual([]);
    expect(app.jsGzip).toBeLessThanOrEqual(150 * 1024);
    expect(app.jsGzip / bare.jsGzip).toBeLessThanOrEqual(1.6);
  }, 120_000);
});
