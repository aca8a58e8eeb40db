// The thread a page's HTML becomes readable text in (extract.ts), one page at a time: the
// server's thread goes on answering meanwhile, and a page that takes too long is stopped by
// ending this thread (the pool's time cap, src/core/workers.ts).
import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from '../../../src/core/workers.ts';
import { htmlToPage } from './extract.ts';

export interface ExtractJob {
  html: string;
  url: string;
}
export type ExtractResult = { title: string; text: string };

parentPort?.on('message', ({ id, job }: WorkerRequest<ExtractJob>) => {
  let reply: WorkerReply<ExtractResult>;
  try {
    reply = { id, result: htmlToPage(job.html, job.url) };
  } catch (err) {
    reply = { id, error: String((err as Error)?.message ?? err).slice(0, 200) };
  }
  parentPort?.postMessage(reply);
});
