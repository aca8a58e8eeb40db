// A conversation as every source becomes before it is written: sessions in order (a parent
// before its branches), each with its logs in time order, times already unique and rising.
import { SESSION_ID_MIN } from '../../../../src/core/index.ts';
import { IMAGES_MAX } from '../../common/limits.ts';

export type Source = 'shellchat' | 'chatgpt' | 'claude';

export interface ImportedLog {
  time: number;
  model: string;
  input: string;
  output: string;
  images: string[];
  tools?: unknown[];
  inputTokens?: number;
  outputTokens?: number;
}

export interface ImportedSession {
  /** Its name within the conversation; parents are named by it. */
  key: string;
  /** The session id it wants (shellchat's own), or undefined to take one near its first log. */
  id?: number;
  parent: string | null;
  branchTime: number | null;
  createdAt: number;
  logs: ImportedLog[];
}

export interface ImportedConversation {
  source: Source;
  /** The source's id of the conversation: importing it again finds it. */
  sourceId: string;
  title: string;
  sessions: ImportedSession[];
}

/** A message of a tree of messages (ChatGPT's mapping, Claude's parent ids): what a turn is made of. */
export interface TreeMessage {
  id: string;
  parent: string | null;
  role: 'user' | 'assistant' | 'skip';
  text: string;
  model: string | null;
  /** Milliseconds, or null when the source has none. */
  time: number | null;
  images: string[];
}

/** A question and its answer (the assistant's messages until the next question): one log. */
interface Turn {
  key: string;
  startId: string;
  lastId: string;
  input: string;
  output: string;
  model: string | null;
  time: number | null;
  images: string[];
  children: Turn[];
}

interface Open {
  startId: string;
  lastId: string;
  input: string;
  output: string;
  model: string | null;
  time: number | null;
  images: string[];
}

/**
 * The sessions of a tree of messages: the path to `current` (else each first child) is the
 * first session; every other child of a turn starts a branch of the session that turn is in,
 * at that turn's time (a different first question: a branch that inherits nothing).
 */
export function sessionsOfTree(messages: Map<string, TreeMessage>, order: string[], current: string | null, fallback: { model: string; time: number }): ImportedSession[] {
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const id of order) {
    const m = messages.get(id)!;
    if (m.parent !== null && messages.has(m.parent) && m.parent !== id) {
      const list = children.get(m.parent) ?? [];
      list.push(id);
      children.set(m.parent, list);
    } else roots.push(id);
  }
  // The turns, found depth first without recursion; a turn two paths share is made once.
  const turns = new Map<string, Turn>();
  const rootTurns: Turn[] = [];
  const close = (open: Open, parent: Turn | null): Turn => {
    const key = `${open.startId}>${open.lastId}`;
    let turn = turns.get(key);
    if (!turn) {
      turn = { key, startId: open.startId, lastId: open.lastId, input: open.input, output: open.output, model: open.model, time: open.time, images: open.images, children: [] };
      turns.set(key, turn);
      (parent ? parent.children : rootTurns).push(turn);
    }
    return turn;
  };
  const seen = new Set<string>();
  const stack: { id: string; open: Open | null; parent: Turn | null }[] = roots.reverse().map((id) => ({ id, open: null, parent: null }));
  while (stack.length) {
    const { id, open: before, parent: parentBefore } = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const m = messages.get(id)!;
    let open = before;
    let parent = parentBefore;
    if (m.role === 'user' && (m.text || m.images.length)) {
      if (open) parent = close(open, parent);
      open = { startId: id, lastId: id, input: m.text, output: '', model: null, time: m.time, images: m.images };
    } else if (m.role === 'assistant' && (m.text || m.images.length)) {
      open = open ?? { startId: id, lastId: id, input: '', output: '', model: null, time: m.time, images: [] };
      open = {
        ...open,
        lastId: id,
        output: open.output ? `${open.output}\n\n${m.text}` : m.text,
        model: m.model ?? open.model,
        time: open.time ?? m.time,
        images: m.images.length ? [...open.images, ...m.images] : open.images,
      };
    }
    const next = children.get(id) ?? [];
    if (!next.length) {
      if (open) close(open, parent);
      continue;
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push({ id: next[i]!, open, parent });
  }
  // The path to the current message, preferred at every fork.
  const onPath = new Set<string>();
  for (let id: string | null = current; id !== null && messages.has(id) && !onPath.has(id); id = messages.get(id)!.parent) onPath.add(id);
  // A turn is on the path when its last message is (the path runs from the root to `current`).
  const pick = (list: Turn[]) => list.find((t) => onPath.has(t.lastId)) ?? list[0]!;
  return lay(rootTurns, pick, fallback);
}

/** Sessions from turns: one chain per session, the other children queued as its branches. */
function lay(rootTurns: Turn[], pick: (list: Turn[]) => Turn, fallback: { model: string; time: number }): ImportedSession[] {
  const sessions: ImportedSession[] = [];
  if (!rootTurns.length) return sessions;
  const queue: { first: Turn; parent: string | null; branchTime: number | null; after: number }[] = [];
  const main = pick(rootTurns);
  queue.push({ first: main, parent: null, branchTime: null, after: 0 });
  let rootsQueued = false;
  while (queue.length) {
    const { first, parent, branchTime, after } = queue.shift()!;
    const session: ImportedSession = { key: `s${sessions.length}`, parent, branchTime, createdAt: 0, logs: [] };
    sessions.push(session);
    let last = after;
    for (let turn: Turn | undefined = first; turn; ) {
      const time = Math.max(Math.round(turn.time ?? fallback.time), last + 1, SESSION_ID_MIN);
      session.logs.push({ time, model: turn.model ?? fallback.model, input: turn.input, output: turn.output, images: turn.images.slice(0, IMAGES_MAX) });
      last = time;
      if (!turn.children.length) break;
      const next = pick(turn.children);
      for (const other of turn.children) if (other !== next) queue.push({ first: other, parent: session.key, branchTime: time, after: time });
      turn = next;
    }
    session.createdAt = session.logs[0]!.time;
    if (!rootsQueued) {
      rootsQueued = true;
      // Another first question: a branch of the first session before its first log.
      const before = session.logs[0]!.time - 1;
      for (const other of rootTurns) if (other !== main) queue.push({ first: other, parent: session.key, branchTime: before, after: before });
    }
  }
  return sessions;
}
