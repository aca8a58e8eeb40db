// Handlers describe results; each environment renders them (React in the browser, ANSI text
// in the CLI, plain values in tests). No handler touches the DOM.
import { Message, type MessageData } from './messages.ts';

export type Effect =
  | { type: 'clear' }
  | { type: 'stop' }
  /** `focus`: what the page puts in view and focuses (the Subscriptions page's `plan:<role>`, `topup:<amount>`). */
  | { type: 'view'; view: 'front' | 'back'; page?: BackPage; focus?: string }
  | { type: 'open'; url: string; blank: boolean }
  /**
   * A marker put into the input as an attached file's is (a page read for the next question):
   * the person sends it with the question, or deletes it to leave that out (src/core/attached.ts).
   */
  | { type: 'attach'; marker: string }
  /** A line under the output, which stays as it is (Left at the first log keeps that log in view). */
  | { type: 'notice'; text: string }
  /** Shows what surrounds a saved answer: its image previews, its model-info line, and the stats and self-evaluation it came with. */
  | {
      type: 'result';
      previews: string[];
      info: { model: string; raw: string; session: number } | null;
      stats?: Record<string, string> | null;
      evaluation?: { score: number; reason: string } | null;
    };

export type BackPage = 'documentation' | 'usage' | 'subscriptions' | 'settings' | 'privacy';

export interface ListItem {
  text: string;
  active?: boolean;
  /** Ranges of `text` to highlight ([start, end) offsets), e.g. the words a search matched. */
  marks?: [number, number][];
  /** A command line the item runs when chosen (Enter or a click in the browser; the CLI prints it). */
  run?: string;
}

export type Output =
  /** `message`: the text is one of a catalogue's messages, shown in the interface's language by its code. */
  | { kind: 'text'; text: string; message?: MessageData }
  /** A model answer or log, rendered as sanitized markdown; `streaming` while it grows. */
  | { kind: 'markdown'; text: string; streaming?: boolean }
  | { kind: 'list'; title?: string; items: ListItem[]; empty?: string }
  | { kind: 'table'; title?: string; columns: string[]; rows: string[][] }
  | { kind: 'json'; value: unknown }
  /**
   * `key`: a message of the shell's own (its `msg.*` strings), which the host shows in the
   * interface's language; `text` is its English.
   */
  | { kind: 'error'; text: string; message?: MessageData; key?: string; params?: Record<string, unknown> }
  | { kind: 'effect'; effect: Effect };

/** What a text or an error says: plain text, a message, or a message as it came over the API. */
export type Said = string | Message | MessageData;
const said = (value: Said) =>
  typeof value === 'string' ? { text: value } : value instanceof Message ? { text: value.text, message: value.toData() } : { text: value.text, message: value };
export const text = (value: Said): Output => ({ kind: 'text', ...said(value) });
export const error = (value: Said): Output => ({ kind: 'error', ...said(value) });
export const effect = (value: Effect): Output => ({ kind: 'effect', effect: value });

/** Plain-text rendering shared by the CLI and the tests. */
export function outputToText(output: Output): string {
  switch (output.kind) {
    case 'text':
    case 'error':
    case 'markdown':
      return output.text;
    case 'list': {
      const lines = output.items.map((i) => (i.active ? `*\\${i.text}` : `\\${i.text}`));
      const body = output.items.length ? lines.join(' ') : (output.empty ?? '');
      return output.title ? `${output.title}:\n${body}` : body;
    }
    case 'table': {
      const rows = [output.columns, ...output.rows];
      const widths = output.columns.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
      const body = rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n');
      return output.title ? `${output.title}\n${body}` : body;
    }
    case 'json':
      return JSON.stringify(output.value, null, 2);
    case 'effect':
      return '';
  }
}
