// Issue 39's import benchmark: a generated ChatGPT export (a zip of split conversations-NNN.json
// files, each conversation a few turns with a regenerated answer: a branch) imported through the
// real server over HTTP on SQLite (and PostgreSQL when it answers), beside reading the same zip
// and tokenizing its JSON with the same streaming parser and nothing else (the baseline), in the
// same run. Also the peak RSS of the process (the server runs in it) over what it was before.
// BENCH_ARCHIVE_CONVERSATIONS sets the count (10,000 by default: about 200 MB of JSON).
import { createReadStream, createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { jsonParser } from 'stream-json/core/parser.js';
import { chatgptConversation } from '../plugins/archive/fixtures/exports.ts';
import { entryBytes, zipEntries } from '../plugins/archive/server/import/zipFile.ts';
import type { ScratchFile } from '../src/core/index.ts';
import { engines, startTestServer, type Engine } from '../tests/server/support.ts';

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');

function text(seed: number, words: number): string {
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[s % WORDS.length]!);
  }
  return out.join(' ');
}

/** One conversation of about 20 KB: four turns, the second answer regenerated. */
function conversation(n: number): Record<string, unknown> {
  const t0 = 1_700_000_000 + n * 100;
  const nodes: Parameters<typeof chatgptConversation>[0]['nodes'] = [{ id: `r${n}`, parent: null }];
  let parent = `r${n}`;
  for (let turn = 0; turn < 4; turn++) {
    nodes.push({ id: `u${n}-${turn}`, parent, role: 'user', content: text(n * 10 + turn, 60), at: t0 + turn * 10 });
    nodes.push({ id: `a${n}-${turn}`, parent: `u${n}-${turn}`, role: 'assistant', content: text(n * 10 + turn + 5, 520), model: 'gpt-4o', at: t0 + turn * 10 + 1 });
    if (turn === 1) nodes.push({ id: `b${n}-${turn}`, parent: `u${n}-${turn}`, role: 'assistant', content: text(n * 10 + turn + 7, 300), model: 'gpt-4o', at: t0 + turn * 10 + 5 });
    parent = `a${n}-${turn}`;
  }
  return chatgptConversation({ id: `bench-${n}`, title: `Bench ${n}`, created: t0, current: parent, nodes });
}

/**
 * Writes the zip to a file an entry at a time, its sizes in each local header as exporters that
 * write to a file do (the import reads a zip by its central directory: a streamed zip's data
 * descriptors cost it nothing more).
 */
async function generate(count: number, perFile = 1000): Promise<{ file: string; jsonBytes: number }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-bench-archive-')), 'chatgpt-export.zip');
  const out = createWriteStream(file);
  const write = (data: Uint8Array) => new Promise<void>((resolve, reject) => out.write(data, (err) => (err ? reject(err) : resolve())));
  let jsonBytes = 0;
  let offset = 0;
  const central: Buffer[] = [];
  for (let start = 0; start < count; start += perFile) {
    const name = Buffer.from(`conversations-${String(start / perFile).padStart(3, '0')}.json`);
    const items: string[] = [];
    for (let n = start; n < Math.min(count, start + perFile); n++) items.push(JSON.stringify(conversation(n)));
    const json = Buffer.from(`[${items.join(',')}]`);
    jsonBytes += json.length;
    const data = deflateRawSync(json, { level: 1 });
    const crc = crc32(json);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(json.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(json.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    await write(local);
    await write(name);
    await write(data);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await write(directory);
  await write(end);
  await new Promise<void>((resolve) => out.end(resolve));
  return { file, jsonBytes };
}

/**
 * The baseline: the zip read by its directory from the file and inflated as the import does
 * (zipFile.ts: 64 KB reads, 4 KB inflate steps), its JSON tokenized by the same parser, nothing kept.
 */
async function readAndParse(file: string): Promise<number> {
  const started = performance.now();
  let tokens = 0;
  const handle = await open(file, 'r');
  const size = (await handle.stat()).size;
  const reader: ScratchFile = {
    size,
    append: () => Promise.reject(new Error('read only')),
    async read(at, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      return buffer.subarray(0, bytesRead);
    },
    remove: () => handle.close(),
  };
  for (const entry of await zipEntries(reader, size)) {
    const parse = jsonParser({ packValues: false, streamValues: true });
    const decoder = new TextDecoder();
    for await (const data of entryBytes(reader, entry, () => undefined)) {
      for (let at = 0; at < data.length; at += 4096) {
        const r = parse(decoder.decode(data.subarray(at, at + 4096), { stream: true })) as { values?: unknown[] } | symbol;
        tokens += typeof r === 'object' && r.values ? r.values.length : 1;
      }
    }
    parse(Symbol.for('object-stream.none') as never);
  }
  await reader.remove();
  if (!tokens) throw new Error('nothing parsed');
  return performance.now() - started;
}

export interface ArchiveImportResult {
  engine: Engine;
  conversations: number;
  zipMb: number;
  jsonMb: number;
  importMs: number;
  baselineMs: number;
  rssGrowthMb: number;
  imported: number;
}

export async function runArchiveImport(count = Number(process.env.BENCH_ARCHIVE_CONVERSATIONS ?? 10_000)): Promise<ArchiveImportResult[]> {
  const { file, jsonBytes } = await generate(count);
  const results: ArchiveImportResult[] = [];
  for (const engine of (await engines()).filter((e) => e !== 'mysql')) {
    const server = await startTestServer(engine, { IMPORT_MAX_SECONDS: '3600' });
    await server.server.accounts.create({ username: 'bencher', email: 'bencher@example.org', password: 'bench-password-1' });
    const client = server.client();
    await client.post('/api/user/login', { username: 'bencher', password: 'bench-password-1' });
    // The baseline before and after the import, their mean: the shared machine's load moves between the two.
    const baselineBefore = await readAndParse(file);
    global.gc?.();
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    const started = performance.now();
    const res = await client.raw(`${server.url}/api/archive/import?name=chatgpt-export.zip`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(statSync(file).size) },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    const answer = (await res.json()) as { result?: { imported: number; refused: number; stopped?: { text: string } }; error?: string };
    const importMs = performance.now() - started;
    clearInterval(sampler);
    if (!answer.result) throw new Error(`import failed: ${answer.error}`);
    const baselineMs = (baselineBefore + (await readAndParse(file))) / 2;
    if (answer.result.stopped) throw new Error(`import stopped: ${answer.result.stopped.text}`);
    results.push({
      engine,
      conversations: count,
      zipMb: statSync(file).size / 1024 / 1024,
      jsonMb: jsonBytes / 1024 / 1024,
      importMs,
      baselineMs,
      rssGrowthMb: (peak - before) / 1024 / 1024,
      imported: answer.result.imported,
    });
    await server.close();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await runArchiveImport()) console.log(JSON.stringify(r));
}
