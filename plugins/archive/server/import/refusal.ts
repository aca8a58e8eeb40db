// A refusal of the whole archive (it stops the import) or of one conversation (the others go on).
import type { Message } from '../../../../src/core/index.ts';

export class ArchiveRefused extends Error {
  readonly said: Message;
  /** 413 for what passed a size, 400 for what is not an export. */
  readonly status: 400 | 413;
  constructor(said: Message, status: 400 | 413 = 400) {
    super(said.text);
    this.said = said;
    this.status = status;
  }
}

/** Thrown while a conversation is read or converted: it is refused, the archive goes on. */
export class ConversationRefused extends Error {
  readonly said: Message;
  constructor(said: Message) {
    super(said.text);
    this.said = said;
  }
}
