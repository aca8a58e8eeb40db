// The shell's event bus (mitt) carries these events; the core owns their names so that a
// plugin and the shell agree on them without importing each other.
import type { Output } from './output.ts';

export type ShellEvents = {
  /** Outputs to show, from anywhere (a command, a plugin reacting to an event). */
  output: Output[];
  /** Streamed answer text to speak aloud when speech is on (deltas; sentences are buffered). */
  'speak:text': string;
  /** The answer ended: speak what is left in the buffer. */
  'speak:end': undefined;
  /** Cancel speech now (Ctrl+C with nothing generating, `:stop`). */
  'speak:cancel': undefined;
  /** Stop generating (Ctrl+C, `:stop`). */
  'generation:stop': undefined;
  /** Session or log navigation from a key or a swipe (between sessions: logged in only). */
  navigate: { target: 'session' | 'log'; direction: 'previous' | 'next' };
  /** A setting changed: key and new value. */
  'settings:changed': { key: string; value: unknown };
};
