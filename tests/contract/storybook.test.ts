// Every shell component has stories, and Storybook builds them offline with telemetry off.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const COMPONENTS = path.join(ROOT, 'src/shell/components');
const STORYBOOK_BIN = path.join(ROOT, 'node_modules/.bin/storybook');

const isStory = (name: string) => name.endsWith('.stories.tsx');

/** Story files as index.json names them: `./src/shell/...`, matching main.ts's stories glob. */
function storyFiles(): string[] {
  return readdirSync(path.join(ROOT, 'src/shell'), { recursive: true, encoding: 'utf8' })
    .filter(isStory)
    .map((file) => './' + path.posix.join('src/shell', file.split(path.sep).join('/')))
    .sort();
}

interface IndexEntry {
  type: 'story' | 'docs';
  importPath: string;
}

describe('storybook', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'shellchat-storybook-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('every shell component has a sibling .stories.tsx', () => {
    const names = readdirSync(COMPONENTS);
    const missing = names
      .filter((name) => name.endsWith('.tsx') && !isStory(name))
      .filter((name) => !names.includes(name.replace(/\.tsx$/, '.stories.tsx')));
    expect(missing).toEqual([]);
  });

  it('builds offline and indexes every story file', { timeout: 180_000 }, async () => {
    // The Node running this test (the project's Node 24), not whatever `node` is first on PATH.
    const run = promisify(execFile)(process.execPath, [STORYBOOK_BIN, 'build', '--quiet', '-o', outDir], {
      cwd: ROOT,
      env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    // execFile rejects on a non-zero exit; show Storybook's output instead of a bare code.
    await run.catch((err: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`storybook build exited ${err.code}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });

    const index = JSON.parse(readFileSync(path.join(outDir, 'index.json'), 'utf8')) as {
      entries: Record<string, IndexEntry>;
    };
    const perFile = new Map<string, number>();
    for (const entry of Object.values(index.entries)) {
      if (entry.type === 'story') perFile.set(entry.importPath, (perFile.get(entry.importPath) ?? 0) + 1);
    }
    const files = storyFiles();
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !perFile.get(file))).toEqual([]);
  });
});
