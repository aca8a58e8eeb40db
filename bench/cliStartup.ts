// B7 terminal client startup: `shellchat --version`, and the time until the interactive shell's
// first prompt (against a server that is up), beside `node -e 0` measured in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MAIN = path.resolve(import.meta.dirname, '../src/cli/main.ts');

/** Milliseconds until the child exits, or until its stdout contains `until`. */
function timed(args: string[], until?: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      if (until && out.includes(until)) {
        resolve(performance.now() - started);
        child.kill();
      }
    });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runCliStartup(serverUrl: string, rounds = 7): Promise<{ nodeMs: number; versionMs: number; promptMs: number }> {
  const env = { ...process.env, SHELLCHAT_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-bench-')) };
  const node: number[] = [];
  const version: number[] = [];
  const prompt: number[] = [];
  for (let i = 0; i < rounds; i++) {
    node.push(await timed(['-e', '0']));
    version.push(await timed([MAIN, '--version']));
    prompt.push(await timed([MAIN, '--server', serverUrl], 'shellchat> ', env));
  }
  return { nodeMs: median(node), versionMs: median(version), promptMs: median(prompt) };
}
