// The documentation's reference tables: functions, shortcuts and gestures, the API. On the
// narrowest phones (320 px) the functions' and the API's code-like words may not fit: those
// tables scroll in their own box, never the page.
import type { Contributed } from '../../../core/host/index.ts';
import { breakable } from '../../breakable.ts';
import type { ApiRow, DocsText } from './sources.ts';

export function Functions({ functions, text: { t, tt } }: { functions: Contributed<'functions'>[]; text: DocsText }) {
  return (
    <section id="functions">
      <h2>{t('docs.section.functions')}</h2>
      {functions.length ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th>{t('docs.column.function')}</th>
                <th>{t('docs.column.parameters')}</th>
                <th>{t('docs.column.description')}</th>
              </tr>
            </thead>
            <tbody>
              {functions.map((f) => (
                <tr key={f.name}>
                  <td>
                    <code>{breakable(f.name)}</code>
                  </td>
                  <td>{f.params}</td>
                  <td>{tt(f.ns, f.key)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t('docs.noFunctions')}</p>
      )}
    </section>
  );
}

export function Shortcuts({ shortcuts, gestures, text: { t, tt } }: { shortcuts: Contributed<'shortcuts'>[]; gestures: Contributed<'gestures'>[]; text: DocsText }) {
  return (
    <section id="shortcuts">
      <h2>{t('docs.section.shortcuts')}</h2>
      <table className="shortcuts">
        <thead>
          <tr>
            <th>{t('docs.column.keys')}</th>
            <th>{t('docs.column.effect')}</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.ns + s.key}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{tt(s.ns, s.key)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>{t('docs.gestures')}</h3>
      <table className="gestures">
        <thead>
          <tr>
            <th>{t('docs.column.gesture')}</th>
            <th>{t('docs.column.effect')}</th>
          </tr>
        </thead>
        <tbody>
          {gestures.map((g) => (
            <tr key={g.ns + g.key}>
              <td>{g.gesture}</td>
              <td>{tt(g.ns, g.key)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Api({ routes, text: { t, tt } }: { routes: ApiRow[]; text: DocsText }) {
  return (
    <section id="api">
      <h2>{t('docs.section.api')}</h2>
      <div className="table-scroll">
        <table className="api">
          <thead>
            <tr>
              <th>{t('docs.column.method')}</th>
              <th>{t('docs.column.path')}</th>
              <th>{t('docs.column.description')}</th>
            </tr>
          </thead>
          <tbody>
            {routes.map((a) => (
              <tr key={a.method + a.path}>
                <td>{a.method}</td>
                <td>
                  <code>{breakable(a.path)}</code>
                </td>
                <td>{tt(a.owner, `docs.api.${a.method} ${a.path}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
