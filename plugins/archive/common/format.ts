// Shellchat's export format (what `:session export` writes as JSON and `:session import` reads
// back): conversations, each a root session and its branches, each session with its logs. A
// log is one question (`input`, the user's) and its answer (`output`, the assistant's, by
// `model`); `time` orders it within its session, and a branch sees its parent's logs up to
// `branch_time`. Also the Markdown rendering of the same.

export const EXPORT_FORMAT = 'shellchat';
export const EXPORT_VERSION = 1;

export interface ExportedLog {
  time: number;
  model: string;
  input: string;
  output: string;
  /** Image URLs of the question and the answer, as stored. */
  images: string[];
  /** The turn's tool calls: {id, name, args, result}. */
  tools: unknown[];
  input_tokens: number;
  output_tokens: number;
}

export interface ExportedSession {
  id: number;
  parent: number | null;
  branch_time: number | null;
  created_at: number;
  updated_at: number;
  logs: ExportedLog[];
}

export interface ExportedConversation {
  /** The root session's id. */
  id: number;
  /** The first question, cut: what a person recognises it by. */
  title: string;
  sessions: ExportedSession[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** One conversation as Markdown: a heading per session, a section per log. */
export function conversationMarkdown(c: ExportedConversation): string {
  const out: string[] = [`# ${c.title.replace(/\n/g, ' ')}`, ''];
  for (const s of c.sessions) {
    out.push(`## Session ${s.id}`, '');
    if (s.parent !== null) out.push(`Branched from session ${s.parent}${s.branch_time !== null ? ` at ${iso(s.branch_time)}` : ''}.`, '');
    for (const log of s.logs) {
      out.push(`### ${iso(log.time)} · ${log.model || 'unknown model'}`, '');
      if (log.input) out.push('**You:**', '', log.input, '');
      out.push(`**${log.model || 'Assistant'}:**`, '', log.output, '');
      for (const url of log.images) out.push(`![image](${url})`, '');
    }
  }
  return out.join('\n') + '\n';
}
