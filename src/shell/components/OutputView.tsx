// Renders the Output model of src/core. Text is rendered as text (never as HTML), so nothing a
// command prints can inject markup; the chat issue adds sanitized markdown.
import type { Output } from '../../core/index.ts';

export function OutputView({ output }: { output: Output }) {
  switch (output.kind) {
    case 'text':
      return <div className="out-text">{output.text}</div>;
    case 'error':
      return (
        <div className="out-error" role="alert">
          {output.text}
        </div>
      );
    case 'list':
      return (
        <div className="out-list">
          {output.title && <div className="out-title">{output.title}</div>}
          {output.items.length === 0 && output.empty && <div className="out-text">{output.empty}</div>}
          <ul>
            {output.items.map((item) => (
              <li key={item.text} className={item.active ? 'active' : undefined} aria-current={item.active || undefined}>
                {item.active ? '*' : ''}
                {item.text}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'table':
      return (
        <div className="out-table">
          {output.title && <div className="out-title">{output.title}</div>}
          <table>
            <thead>
              <tr>
                {output.columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {output.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'json':
      return <pre className="out-json">{JSON.stringify(output.value, null, 2)}</pre>;
    case 'effect':
      return null;
  }
}
