#!/usr/bin/env node
// `shellchat`: the terminal client (issue 23). `--version` answers before anything heavy loads.
import { readFileSync } from 'node:fs';
import path from 'node:path';

// A reader that went away (`shellchat "hi" | head -1`) ends the run quietly, as `cat` does; the
// request in flight closes with the process, so the server stops the provider.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}

const argv = process.argv.slice(2);
if (argv.includes('--version') || argv.includes('-v')) {
  const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
  process.stdout.write(`shellchat ${pkg.version}\n`);
} else {
  const { runCli } = await import('./cli.ts');
  process.exitCode = await runCli(argv);
}
