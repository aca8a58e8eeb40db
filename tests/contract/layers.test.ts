// The layer rules of DESIGN.md §1, checked on every import in the tree (our stand-in for a
// lint boundaries rule: typescript-eslint needs the classic TypeScript API, which TS 7 lacks).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/shellTester.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : files(full);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|stories)\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Module specifiers a file imports at run time (type-only imports are erased, so they do not count). */
function imports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^\s*(import|export)(\s+type\b)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)]
    .filter((m) => !m[2])
    .map((m) => m[3] ?? m[4]!);
}

const rel = (file: string) => path.relative(ROOT, file);
const resolved = (file: string, spec: string) => (spec.startsWith('.') ? rel(path.resolve(path.dirname(file), spec)) : spec);

function violations(dir: string, allowed: (target: string, file: string) => boolean): string[] {
  return files(path.join(ROOT, dir)).flatMap((file) =>
    imports(file)
      .map((spec) => resolved(file, spec))
      .filter((target) => !allowed(target, file))
      .map((target) => `${rel(file)} → ${target}`),
  );
}

const PURE = ['mitt', 'i18next', 'zod', 'hono/client', 'eventsource-parser'];

describe('layers', () => {
  it('src/core imports only itself and pure libraries (no DOM, no node:*)', () => {
    expect(violations('src/core', (t) => t.startsWith('src/core/') || PURE.includes(t))).toEqual([]);
  });

  it('plugins import the plugin API of src/core (not the host internals of src/core/host), their own files, and other plugins only through common/index.ts', () => {
    expect(
      violations('plugins', (t, file) => {
        const own = rel(file).split('/').slice(0, 2).join('/');
        if (t.startsWith('src/core/host/')) return false;
        if (t.startsWith('src/core/') || t.startsWith(own + '/')) return true;
        if (/^plugins\/[^/]+\/common\/index\.ts$/.test(t)) return true;
        return !t.startsWith('src/') && !t.startsWith('plugins/') && !t.startsWith('node:') && !t.startsWith('react');
      }),
    ).toEqual([]);
  });

  it('common/ plugin code uses neither the DOM nor React', () => {
    const offenders = files(path.join(ROOT, 'plugins'))
      .filter((f) => f.includes(`${path.sep}common${path.sep}`))
      .filter((f) => /\b(document|window|navigator|localStorage)\./.test(readFileSync(f, 'utf8')) || imports(f).some((i) => i.startsWith('react')));
    expect(offenders.map(rel)).toEqual([]);
  });

  it('the shell never imports the server or a plugin (it sees plugins through the loader)', () => {
    expect(violations('src/shell', (t) => !t.startsWith('src/server') && !t.startsWith('plugins/'))).toEqual([]);
  });

  it('the server never imports the shell', () => {
    expect(violations('src/server', (t) => !t.startsWith('src/shell'))).toEqual([]);
  });

  it("the server's transport (provider HTTP, the relays, SSE) never imports the turn", () => {
    expect(violations('src/server/transport', (t) => !t.startsWith('src/server/turn/'))).toEqual([]);
  });
});
