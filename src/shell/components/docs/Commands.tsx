// The command reference: every visible command, by help group, as `:help` lists them.
import type { HelpEntry, Translate } from '../../../core/host/index.ts';
import { breakable } from '../../breakable.ts';

/** `title` names a help group as its plugin's locale files say it. */
export function Commands({ groups, title, t }: { groups: Map<string, HelpEntry[]>; title: (group: string) => string; t: Translate }) {
  return (
    <section id="commands">
      <h2>{t('docs.section.commands')}</h2>
      {[...groups].filter(([, entries]) => entries.length).map(([group, entries]) => (
        <table key={group} className="commands">
          <caption>{title(group)}</caption>
          <thead>
            <tr>
              <th>{t('docs.column.command')}</th>
              <th>{t('docs.column.description')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.usage}>
                <td>
                  <code>{breakable(e.usage)}</code>
                </td>
                <td>{e.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
