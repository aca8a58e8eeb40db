import { use, useMemo } from 'react';
import { collectDocs, CommandRegistry, DOC_SECTIONS, helpEntries, helpGroupsOf, helpGroupTitle, type PluginHost } from '../../core/host/index.ts';
import { useHost, useNamespaces, useT } from '../context.tsx';
import { breakable } from '../breakable.ts';

interface ApiRow {
  method: string;
  path: string;
  owner: string;
}
type Docs = [Awaited<ReturnType<PluginHost['docsSources']>>, ApiRow[]];
const docsCache = new WeakMap<PluginHost, Promise<Docs>>();
/**
 * The plugins' documentation and the API table (generated from the server's routes:
 * npm run docs:api), loaded once per host (suspends until they have arrived).
 */
function useDocsSources(host: PluginHost): Docs {
  const promise = useMemo(() => {
    if (!docsCache.has(host)) {
      docsCache.set(host, Promise.all([host.docsSources(), import('../../core/api/apiRoutes.json').then((m) => m.default as ApiRow[])]));
    }
    return docsCache.get(host)!;
  }, [host]);
  return use(promise);
}

/** The documentation page, assembled from plugin contributions (DESIGN.md §2). */
export function DocumentationPage() {
  const host = useHost();
  const t = useT();
  const ready = useNamespaces([...host.manifests.map((m) => m.id), 'core']);
  const manifests = host.manifests;
  const [sources, routes] = useDocsSources(host);
  const tt = (ns: string, key: string) => host.t(ns)(key);
  const intro = collectDocs(sources, 'introduction') as unknown as { key: string; ns: string }[];
  const steps = collectDocs(sources, 'quickStart');
  const features = collectDocs(sources, 'features');
  const functions = collectDocs(sources, 'functions');
  const shortcuts = collectDocs(sources, 'shortcuts');
  const gestures = collectDocs(sources, 'gestures');
  // The routes of this build: the core's, and those of the plugins it ships.
  const api = routes.filter((r) => r.owner === 'core' || manifests.some((m) => m.id === r.owner));
  const faqs = collectDocs(sources, 'faqs');
  const feedback = collectDocs(sources, 'feedback');
  const groups = ready ? helpEntries(new CommandRegistry(manifests, host.env), (ns) => host.t(ns)) : new Map();

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

      <section id="introduction">
        <h2>{t('docs.section.introduction')}</h2>
        {intro.map((p) => (
          <p key={p.ns + p.key}>{tt(p.ns, p.key)}</p>
        ))}
      </section>

      <section id="quick-start">
        <h2>{t('docs.section.quick-start')}</h2>
        <ol className="quick-start">
          {steps.map((s) => (
            <li key={s.ns + s.key}>{tt(s.ns, s.key)}</li>
          ))}
        </ol>
      </section>

      <section id="features">
        <h2>{t('docs.section.features')}</h2>
        <ol className="features">
          {features.filter((f) => !f.more).map((f) => (
            <li key={f.ns + f.key}>{tt(f.ns, f.key)}</li>
          ))}
        </ol>
        <h3>{t('docs.moreFeatures')}</h3>
        <ul className="more-features">
          {features.filter((f) => f.more).map((f) => (
            <li key={f.ns + f.key}>{tt(f.ns, f.key)}</li>
          ))}
        </ul>
      </section>

      <section id="commands">
        <h2>{t('docs.section.commands')}</h2>
        {[...groups].filter(([, entries]) => entries.length).map(([group, entries]) => (
          <table key={group} className="commands">
            <caption>{helpGroupTitle(helpGroupsOf(manifests), (ns) => host.t(ns), group)}</caption>
            <thead>
              <tr>
                <th>{t('docs.column.command')}</th>
                <th>{t('docs.column.description')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e: { usage: string; summary: string }) => (
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

      {/* On the narrowest phones (320 px) the functions' and the API's code-like words may not
          fit: those tables scroll in their own box, never the page. */}
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
              {api.map((a) => (
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

      <section id="faqs">
        <h2>{t('docs.section.faqs')}</h2>
        <dl className="faqs">
          {faqs.map((f) => (
            <div key={f.ns + f.question}>
              <dt>{tt(f.ns, f.question)}</dt>
              <dd>{tt(f.ns, f.answer)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section id="feedback">
        <h2>{t('docs.section.feedback')}</h2>
        <ul className="feedback">
          {feedback.map((f) => (
            <li key={f.href}>
              <a href={f.href} target="_blank" rel="noopener noreferrer">
                {tt(f.ns, f.label)}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
