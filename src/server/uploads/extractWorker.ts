// The thread documents are read in (extractPool.ts starts it with its heap capped and watches
// its time and memory): one job at a time, its text or its refusal sent back.
import { parentPort } from 'node:worker_threads';
import { docxText, pdfText } from './documents.ts';
import { RefusedError, type Refusal } from './refusal.ts';

export interface ExtractJob {
  id: number;
  kind: 'pdf' | 'docx';
  data: Uint8Array;
}

export type ExtractResult = { id: number; text: string } | { id: number; refusal: Refusal };

parentPort?.on('message', async (job: ExtractJob) => {
  let result: ExtractResult;
  try {
    result = { id: job.id, text: job.kind === 'pdf' ? await pdfText(job.data) : await docxText(job.data) };
  } catch (err) {
    const refusal: Refusal = err instanceof RefusedError ? err.refusal : { kind: 'damaged', type: job.kind === 'pdf' ? 'PDF' : 'DOCX' };
    result = { id: job.id, refusal };
  }
  parentPort?.postMessage(result);
});
