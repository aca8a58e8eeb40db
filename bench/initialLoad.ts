// Benchmark: gzip bytes of the JavaScript needed for the first paint of the front view
// (the entry chunk and everything it imports statically), beside a bare Vite + React page
// built in the same run. Also checks that KaTeX, Prism and plugin browser code stay out of
// the initial graph.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const ROOT = path.resolve(import.meta.dirname, '..');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type ViteManifest = Record<string, ManifestChunk>;

export interface InitialGraph {
  files: string[];
  sources: string[];
  jsGzip: number;
  cssGzip: number;
}

/** Walks the static imports from the entry in a Vite manifest. */
export function initialGraph(outDir: string): InitialGraph {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]!.imports ?? []) visit(dep);
  };
  visit(entryKey);
  const chunks = [...seen].map((k) => manifest[k]!);
  const gz = (file: string) => gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length;
  const css = [...new Set(chunks.flatMap((c) => c.css ?? []))];
  return {
    files: chunks.map((c) => c.file),
    sources: [...seen],
    jsGzip: chunks.reduce((sum, c) => sum + gz(c.file), 0),
    cssGzip: css.reduce((sum, f) => sum + gz(f), 0),
  };
}

/**
 * Runs `fn` with extra environment variables. NODE_ENV is forced to production because the
 * test runner sets it to `test`, which would make Vite bundle React's development build.
 */
async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env, { NODE_ENV: 'production' });
  try {
    return await fn();
  } finally {
    process.env = saved;
  }
}

/** Builds the app as shipped; `options` change the build (the stream trace builds it unminified). */
export async function buildApp(outDir: string, env: Record<string, string> = {}, options: { minify?: boolean } = {}): Promise<void> {
  await withEnv({ ...env, SHELLCHAT_OUT_DIR: outDir }, () =>
    build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'silent', root: ROOT, mode: 'production', build: options }),
  );
}

export async function buildBare(outDir: string): Promise<void> {
  await withEnv({}, () =>
    build({
      configFile: false,
      root: path.join(ROOT, 'bench', 'bare'),
      logLevel: 'silent',
      mode: 'production',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, manifest: true, target: 'es2023' },
    }),
  );
}

export async function runInitialLoad(): Promise<{ app: InitialGraph; bare: InitialGraph; ratio: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-bench-'));
  await buildBare(path.join(dir, 'bare'));
  await buildApp(path.join(dir, 'app'));
  const bare = initialGraph(path.join(dir, 'bare'));
  const app = initialGraph(path.join(dir, 'app'));
  return { app, bare, ratio: app.jsGzip / bare.jsGzip };
}

const FORBIDDEN = [/katex/i, /prism/i, /refractor/i, /plugins\/[^/]+\/client\//];

export function forbiddenInInitial(graph: InitialGraph): string[] {
  return graph.sources.filter((s) => FORBIDDEN.some((re) => re.test(s)));
}

if (import.meta.main) {
  // Run alone with `node bench/initialLoad.ts`; `npm run bench` runs every benchmark.
  const { app, bare, ratio } = await runInitialLoad();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log('initial load (JavaScript for the first paint of the front view, gzip -9)');
  console.log(`  shellchat: ${kb(app.jsGzip)} in ${app.files.length} files (+ CSS ${kb(app.cssGzip)})`);
  console.log(`  bare Vite + React page: ${kb(bare.jsGzip)}`);
  console.log(`  ratio: ${ratio.toFixed(2)}x (target <= 1.6x, <= 150 KB)`);
  const forbidden = forbiddenInInitial(app);
  console.log(`  KaTeX, Prism or plugin browser code in the initial load: ${forbidden.length ? forbidden.join(', ') : 'none'}`);
}
