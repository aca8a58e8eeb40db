// The command reference: every visible command, by help group, as `:help` lists them.
import type { HelpEntry, HelpGroup, Translate } from '../../../core/host/index.ts';
import { breakable } from '../../breakable.ts';

export function Commands({ groups, t }: { groups: Map<HelpGroup, HelpEntry[]>; t: Translate }) {
  return (
    <section id="commands">
      <h2>{t('docs.section.commands')}</h2>
      {[...groups].filter(([, entries]) => entries.length).map(([group, entries]) => (
        <table key={group} className="commands">
          <caption>{t(`help.group.${group}`)}</caption>
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
