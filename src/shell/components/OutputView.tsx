// Renders the Output model of src/core. Text is rendered as text (never as HTML), so nothing a
// command prints can inject markup. Markdown goes through the one sanitizing renderer in
// ../markdown, loaded lazily (KaTeX and Prism stay out of the first paint); until it has loaded,
// the markdown shows as plain text.
import { lazy, Suspense, useContext, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ListItem, Output } from '../../core/index.ts';
import { ShellContext } from '../context.tsx';
import { breakable } from '../breakable.ts';
import { LoadBoundary, LoadFailed } from './LoadBoundary.tsx';
import { WindowedTable, WINDOW_THRESHOLD } from './WindowedTable.tsx';

// One component type for streaming and finished answers (`done` = not streaming, which is what
// `Markdown` is), so the end of a stream keeps the rendered blocks instead of re-mounting them.
const StreamingMarkdown = lazy(() => import('../markdown/index.ts').then((m) => ({ default: m.StreamingMarkdown })));

// A command inside a line (a usage line, "e.g. :lang use ja.") runs to the end of its line.
const COMMAND_RUN = /(^|\s)([:!][A-Za-z][^\n]*)/g;

/**
 * Text with each command in it isolated left to right, so that a right-to-left interface shows
 * `:lang use <code>` as typed rather than `<lang use <code:` (lines take the direction of their
 * own first letter: styles.css).
 */
export function isolated(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(COMMAND_RUN)) {
    const start = m.index + m[1]!.length;
    parts.push(text.slice(last, start), <bdi dir="ltr" key={start}>{m[2]}</bdi>);
    last = start + m[2]!.length;
  }
  return last ? [...parts, text.slice(last)] : text;
}

export function OutputView({ output }: { output: Output }) {
  switch (output.kind) {
    case 'text':
      return <div className="out-text">{isolated(output.text)}</div>;
    case 'markdown':
      // Should the renderer fail to load, the answer stays readable as plain text.
      return (
        <LoadBoundary
          fallback={() => (
            <>
              <div className="out-text">{output.text}</div>
              <LoadFailed />
            </>
          )}
        >
          <Suspense fallback={<div className="out-text">{output.text}</div>}>
            {/* A streamed answer's text changes at most once a frame already (the chat's frameBatcher); a long one arriving at once is parsed in slices. */}
            <StreamingMarkdown text={output.text} done={!output.streaming} sync sliced />
          </Suspense>
        </LoadBoundary>
      );
    case 'error':
      return (
        <div className="out-error" role="alert">
          {isolated(output.text)}
        </div>
      );
    case 'list':
      return (
        <div className="out-list">
          {output.title && <div className="out-title">{output.title}</div>}
          {output.items.length === 0 && output.empty && <div className="out-text">{output.empty}</div>}
          <ul>
            {output.items.map((item, i) => (
              <li key={`${i}:${item.text}`} className={item.active ? 'active' : undefined} aria-current={item.active || undefined}>
                {item.active ? '*' : ''}
                {item.run ? <RunItem item={item} /> : marked(item)}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'table':
      if (output.rows.length > WINDOW_THRESHOLD) {
        return (
          <>
            {output.title && <div className="out-title">{output.title}</div>}
            <WindowedTable columns={output.columns} rows={output.rows} />
          </>
        );
      }
      return <OutTable title={output.title} columns={output.columns} rows={output.rows} />;
    case 'json':
      return <pre className="out-json">{JSON.stringify(output.value, null, 2)}</pre>;
    case 'effect':
      return null;
  }
}

/** An item's text with its marks as <mark> elements (text nodes only: never markup from the text). */
function marked({ text, marks }: ListItem): ReactNode {
  if (!marks?.length) return text;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of marks) {
    if (start < at || end <= start || end > text.length) continue;
    parts.push(text.slice(at, start), <mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  return [...parts, text.slice(at)];
}

/** An item that runs a command when chosen: a button, so Enter and a click both choose it. */
function RunItem({ item }: { item: ListItem }) {
  const shell = useContext(ShellContext);
  const run = item.run!;
  return (
    <button type="button" className="out-run" onClick={() => void shell?.controller.shortcut(run, () => undefined)}>
      {marked(item)}
    </button>
  );
}

/**
 * A table wider than its box scrolls sideways (a long command's syntax does not wrap); a keyboard
 * reaches it only if it can take the focus (WCAG 2.1.1, axe's scrollable-region-focusable), so
 * it takes a Tab stop only while it scrolls.
 */
function OutTable({ title, columns, rows }: { title?: string; columns: string[]; rows: string[][] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(box);
    // The table growing inside an unchanged box (its fonts loading) changes what scrolls too.
    const table = box.querySelector('table');
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="out-table" ref={ref} tabIndex={scrolls ? 0 : undefined}>
      {title && <div className="out-title">{title}</div>}
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j}>{breakable(cell)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
