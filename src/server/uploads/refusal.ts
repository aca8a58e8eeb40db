// Why a document was not read: a limit it passed (limits.ts), or bytes that are not what they
// claim. Made in the worker (zip.ts, documents.ts) and by the pool that runs it (extractPool.ts),
// carried between them as plain data, and put into words (in the server's messages, which the
// interface translates) only at the end, by extract.ts.
import { MessageError, type Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export type Refusal =
  | { kind: 'unpacked'; mb: number }
  | { kind: 'entries'; max: number }
  | { kind: 'pages'; max: number }
  | { kind: 'memory'; mb: number }
  | { kind: 'time'; seconds: number }
  | { kind: 'damaged'; type: 'DOCX' | 'PDF' }
  | { kind: 'busy' };

/** An error that carries its refusal (thrown in the worker, sent over as the refusal alone). */
export class RefusedError extends MessageError {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(describeRefusal(refusal));
    this.refusal = refusal;
  }
}

/** The server's message for a refusal. */
export function describeRefusal(refusal: Refusal): Message {
  switch (refusal.kind) {
    case 'unpacked':
      return SERVER_MESSAGES.documentUnpacked(refusal.mb);
    case 'entries':
      return SERVER_MESSAGES.documentEntries(refusal.max);
    case 'pages':
      return SERVER_MESSAGES.documentPages(refusal.max);
    case 'memory':
      return SERVER_MESSAGES.documentMemory(refusal.mb);
    case 'time':
      return SERVER_MESSAGES.documentTime(refusal.seconds);
    case 'damaged':
      return SERVER_MESSAGES.documentDamaged(refusal.type);
    case 'busy':
      return SERVER_MESSAGES.documentBusy;
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
