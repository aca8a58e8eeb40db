// tmux's pipe-pane target for benchmark B9: every piece of output the pane received, appended to
// `<prefix>.raw`, and the moment it came (ms since the epoch) with the raw length so far to
// `<prefix>.times` (one `time length` line a piece). `node bench/ptyStamp.ts <prefix>`.
import { appendFileSync } from 'node:fs';

const prefix = process.argv[2]!;
let length = 0;
process.stdin.on('data', (chunk: Buffer) => {
  const at = performance.timeOrigin + performance.now();
  appendFileSync(`${prefix}.raw`, chunk);
  length += chunk.length;
  appendFileSync(`${prefix}.times`, `${at.toFixed(3)} ${length}\n`);
});
