import { collectDocs, CommandRegistry, DOC_SECTIONS, helpEntries, helpGroupsOf, helpGroupTitle, type HelpEntry } from '../../core/host/index.ts';
import { useHost, useNamespaces, useT } from '../context.tsx';
import { Commands } from './docs/Commands.tsx';
import { Faqs, Features, Feedback, Introduction, QuickStart } from './docs/prose.tsx';
import { useDocsSources, type DocsText } from './docs/sources.ts';
import { Api, Functions, Shortcuts } from './docs/tables.tsx';

/** The documentation page, assembled from plugin contributions (DESIGN.md §2), one component per section (docs/). */
export function DocumentationPage() {
  const host = useHost();
  const t = useT();
  const ready = useNamespaces([...host.manifests.map((m) => m.id), 'core']);
  const manifests = host.manifests;
  const [sources, routes] = useDocsSources(host);
  const text: DocsText = { t, tt: (ns, key, vars) => host.t(ns)(key, vars) };
  // The routes of this build: the core's, and those of the plugins it ships.
  const api = routes.filter((r) => r.owner === 'core' || manifests.some((m) => m.id === r.owner));
  const groups: Map<string, HelpEntry[]> = ready ? helpEntries(new CommandRegistry(manifests, host.env), (ns) => host.t(ns)) : new Map();

  return (
    <article className="page docs" data-testid="page-documentation">
      <h1>{t('docs.title')}</h1>
      <nav className="toc" aria-label={t('docs.contents')}>
        <ol>
          {DOC_SECTIONS.map((id) => (
            <li key={id}>
              <a href={`#${id}`}>{t(`docs.section.${id}`)}</a>
            </li>
          ))}
        </ol>
      </nav>
      <Introduction paragraphs={collectDocs(sources, 'introduction') as unknown as { key: string; ns: string }[]} text={text} />
      <QuickStart steps={collectDocs(sources, 'quickStart')} text={text} />
      <Features features={collectDocs(sources, 'features')} text={text} />
      <Commands groups={groups} title={(group) => helpGroupTitle(helpGroupsOf(manifests), (ns) => host.t(ns), group)} t={t} />
      <Functions functions={collectDocs(sources, 'functions')} text={text} />
      <Shortcuts shortcuts={collectDocs(sources, 'shortcuts')} gestures={collectDocs(sources, 'gestures')} text={text} />
      <Api routes={api} text={text} />
      <Faqs faqs={collectDocs(sources, 'faqs')} text={text} />
      <Feedback links={collectDocs(sources, 'feedback')} text={text} />
    </article>
  );
}
