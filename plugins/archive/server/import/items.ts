// The conversations of a JSON export, one at a time, from stream-json's tokens (its bare
// tokenizer, strings and numbers in chunks): the items of the top-level array, or of the
// top-level object's `conversations` array (shellchat's own export). Every value is built here
// under the limits (depth, string length, values and characters per conversation), so a
// hostile file costs what its bounds allow: a conversation that passes one is skipped, not
// built, and reported refused; what passes them outside any conversation stops the archive.
import { jsonParser } from 'stream-json/core/parser.js';
import { CONVERSATION_MAX_CHARS, CONVERSATION_MAX_VALUES, CONVERSATIONS_MAX, JSON_DEPTH_MAX, STRING_MAX_CHARS } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ArchiveRefused } from './refusal.ts';
import type { Message } from '../../../../src/core/index.ts';

type Token = { name: string; value?: unknown };
const NONE = Symbol.for('object-stream.none');
const MANY = Symbol.for('object-stream.many');

/** A conversation as read: its value, or why it was skipped. */
export type Item = { value: unknown } | { refused: Message };

/** Values outside the conversations (shellchat's `format`, `version`...): a few. */
const OUTSIDE_MAX_VALUES = 10_000;

interface Frame {
  array: boolean;
  value: Record<string, unknown> | unknown[];
  key: string | null;
}

export class ItemReader {
  private readonly parse = jsonParser({ packValues: false, streamValues: true });
  private readonly stack: Frame[] = [];
  /** Index in the stack of the array whose items are conversations, once found. */
  private itemsAt = -1;
  private chunks: string[] = [];
  private chunkChars = 0;
  private pendingKey: string | null = null;
  /** The conversation being read: what it has cost so far, and why it is skipped. */
  private item: { values: number; chars: number; refused?: Message; skipDepth: number } | null = null;
  private outsideValues = 0;
  private count = 0;
  private done = false;
  private out: Item[] = [];
  private failure: unknown;

  /** Conversations seen so far. */
  get conversations(): number {
    return this.count;
  }

  /** Feeds text; returns the conversations it completed. */
  push(text: string): Item[] {
    if (this.failure) throw this.failure;
    try {
      this.feed(this.parse(text));
    } catch (err) {
      // The conversations completed before the failure still go out; the failure comes next.
      this.failure = err;
    }
    return this.take();
  }

  /** The end of the text: the rest, or why the file is not an export. */
  end(): Item[] {
    if (this.failure) throw this.failure;
    this.feed(this.parse(NONE as never));
    if (!this.done) throw new ArchiveRefused(MESSAGES.notJson('the file ends early'));
    if (this.itemsAt < 0) throw new ArchiveRefused(MESSAGES.notArchive);
    return this.take();
  }

  private take(): Item[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private feed(result: unknown): void {
    if (result === NONE || result === undefined) return;
    const tokens = (result as Record<symbol, unknown>)[MANY] === 1 ? (result as { values: Token[] }).values : [result as Token];
    for (const token of tokens) this.token(token);
  }

  private token(token: Token): void {
    if (this.done && token.name !== 'whitespace') throw new ArchiveRefused(MESSAGES.notJson('more than one value'));
    const skip = this.item?.refused !== undefined ? this.item : undefined;
    if (skip) {
      // A refused conversation: only its brackets are counted, to find its end.
      if (token.name === 'startObject' || token.name === 'startArray') skip.skipDepth++;
      else if (token.name === 'endObject' || token.name === 'endArray' || (skip.skipDepth === 0 && (token.name === 'endString' || token.name === 'endNumber'))) {
        if (token.name === 'endObject' || token.name === 'endArray') skip.skipDepth--;
        if (skip.skipDepth <= 0) this.finishItem();
      }
      return;
    }
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        return this.open(token.name === 'startArray');
      case 'endObject':
      case 'endArray': {
        const frame = this.stack.pop()!;
        // Its key in the object that holds it, kept while it was open.
        this.pendingKey = frame.key;
        // The conversations' array closes: its items went out one by one.
        if (this.stack.length === this.itemsAt) return this.value([]);
        return this.value(frame.value);
      }
      case 'startKey':
      case 'startString':
      case 'startNumber':
        this.chunks = [];
        this.chunkChars = 0;
        return;
      case 'stringChunk':
      case 'numberChunk':
        return this.chunk(String(token.value));
      case 'endKey':
        this.pendingKey = this.text();
        return;
      case 'endString':
        return this.value(this.text());
      case 'endNumber':
        return this.value(Number(this.text()));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.value(token.value ?? null);
    }
  }

  private chunk(text: string): void {
    this.chunkChars += text.length;
    if (this.chunkChars > STRING_MAX_CHARS) return this.refuse(MESSAGES.stringTooLong, 0);
    if (this.item) {
      this.item.chars += text.length;
      if (this.item.chars > CONVERSATION_MAX_CHARS) return this.refuse(MESSAGES.conversationTooLarge, 0);
    }
    this.chunks.push(text);
  }

  private text(): string {
    const text = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks = [];
    return text;
  }

  /** Whether the next value is a conversation: the top of the stack is the conversations' array. */
  private get atItems(): boolean {
    return this.itemsAt >= 0 && this.stack.length === this.itemsAt + 1;
  }

  /**
   * A limit passed: inside a conversation, it is dropped and skipped to its end (`opening`: a
   * container being opened counts as open); outside one, the archive stops.
   */
  private refuse(said: Message, opening: number): void {
    if (!this.item) throw new ArchiveRefused(said, said === MESSAGES.stringTooLong ? 413 : 400);
    this.item.refused = said;
    this.item.skipDepth = this.stack.length - (this.itemsAt + 1) + opening;
    this.stack.length = this.itemsAt + 1;
    this.chunks = [];
    this.pendingKey = null;
  }

  private open(array: boolean): void {
    if (this.atItems) this.startItem();
    if (this.stack.length + 1 > JSON_DEPTH_MAX) return this.refuse(MESSAGES.tooDeep, 1);
    if (!this.counted()) return this.refuse(MESSAGES.conversationTooLarge, 1);
    // The conversations: the top-level array, or the top-level object's `conversations`.
    const isItems = this.itemsAt < 0 && array && (this.stack.length === 0 || (this.stack.length === 1 && !this.stack[0]!.array && this.pendingKey === 'conversations'));
    this.stack.push({ array, value: array ? [] : {}, key: this.pendingKey });
    this.pendingKey = null;
    if (isItems) this.itemsAt = this.stack.length - 1;
  }

  private startItem(): void {
    if (++this.count > CONVERSATIONS_MAX) throw new ArchiveRefused(MESSAGES.tooManyConversations, 413);
    this.item = { values: 0, chars: 0, skipDepth: 0 };
  }

  /** One more value, against the conversation's budget or the outside's; false past the conversation's. */
  private counted(): boolean {
    if (this.item) return ++this.item.values <= CONVERSATION_MAX_VALUES;
    if (++this.outsideValues > OUTSIDE_MAX_VALUES) throw new ArchiveRefused(MESSAGES.notArchive);
    return true;
  }

  private finishItem(): void {
    const item = this.item!;
    this.item = null;
    this.out.push(item.refused ? { refused: item.refused } : { value: undefined });
  }

  /** A complete value goes into its container; a conversation goes out. */
  private value(value: unknown): void {
    if (this.atItems) {
      if (!this.item) this.startItem();
      this.item = null;
      this.out.push({ value });
      return;
    }
    if ((value === null || typeof value !== 'object') && !this.counted()) return this.refuse(MESSAGES.conversationTooLarge, 0);
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      this.done = true;
      return;
    }
    if (parent.array) (parent.value as unknown[]).push(value);
    else {
      // A key such as `__proto__` is kept as an own property, never as the prototype.
      Object.defineProperty(parent.value, this.pendingKey ?? '', { value, enumerable: true, writable: true, configurable: true });
      this.pendingKey = null;
    }
  }
}
