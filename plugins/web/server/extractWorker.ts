// What a worker thread of the web plugin's pool runs (extractPool.ts): a page's HTML made
// readable text (extract.ts), off the server's thread; a page that takes too long is stopped by
// ending the thread (the pool's time cap, src/core/workers.ts).
import { htmlToPage } from './extract.ts';

export interface ExtractJob {
  html: string;
  url: string;
}
export type ExtractResult = { title: string; text: string };

export function run(job: ExtractJob): ExtractResult {
  return htmlToPage(job.html, job.url);
}
