import { useState, type UIEvent } from 'react';

/** Rows drawn above and below the visible part, so quick scrolls show no gap. */
const OVERSCAN = 20;
/** Every windowed row is one line of this height (cells are cut with an ellipsis). */
export const ROW_HEIGHT = 26;
/** Tables longer than this render a window of rows, not all of them (DESIGN.md §5). */
export const WINDOW_THRESHOLD = 100;

/**
 * A long table (a session of 1,000 logs, a long list) drawn as a window: only the rows in
 * view (plus some around them) are in the DOM; spacer rows keep the scroll height right.
 */
export function WindowedTable({ columns, rows, height = 480 }: { columns: string[]; rows: string[][]; height?: number }) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const count = Math.ceil(height / ROW_HEIGHT) + 2 * OVERSCAN;
  const last = Math.min(rows.length, first + count);
  return (
    <div
      className="out-table windowed"
      style={{ maxHeight: height }}
      onScroll={(e: UIEvent<HTMLDivElement>) => setTop(e.currentTarget.scrollTop)}
      data-rows={rows.length}
    >
      <table aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr aria-hidden="true" style={{ height: first * ROW_HEIGHT }} />}
          {rows.slice(first, last).map((row, i) => (
            <tr key={first + i} aria-rowindex={first + i + 2} style={{ height: ROW_HEIGHT }}>
              {row.map((cell, j) => (
                <td key={j} title={cell}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
          {last < rows.length && <tr aria-hidden="true" style={{ height: (rows.length - last) * ROW_HEIGHT }} />}
        </tbody>
      </table>
    </div>
  );
}
