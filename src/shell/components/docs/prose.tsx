// The documentation's sections of prose: introduction, quick start, features, FAQs, feedback.
import type { Contributed } from '../../../core/host/index.ts';
import type { DocsText } from './sources.ts';

export function Introduction({ paragraphs, text: { t, tt } }: { paragraphs: { key: string; ns: string }[]; text: DocsText }) {
  return (
    <section id="introduction">
      <h2>{t('docs.section.introduction')}</h2>
      {paragraphs.map((p) => (
        <p key={p.ns + p.key}>{tt(p.ns, p.key)}</p>
      ))}
    </section>
  );
}

export function QuickStart({ steps, text: { t, tt } }: { steps: Contributed<'quickStart'>[]; text: DocsText }) {
  return (
    <section id="quick-start">
      <h2>{t('docs.section.quick-start')}</h2>
      <ol className="quick-start">
        {steps.map((s) => (
          <li key={s.ns + s.key}>{tt(s.ns, s.key)}</li>
        ))}
      </ol>
    </section>
  );
}

export function Features({ features, text: { t, tt } }: { features: Contributed<'features'>[]; text: DocsText }) {
  return (
    <section id="features">
      <h2>{t('docs.section.features')}</h2>
      <ol className="features">
        {features.filter((f) => !f.more).map((f) => (
          <li key={f.ns + f.key}>{tt(f.ns, f.key, f.vars)}</li>
        ))}
      </ol>
      <h3>{t('docs.moreFeatures')}</h3>
      <ul className="more-features">
        {features.filter((f) => f.more).map((f) => (
          <li key={f.ns + f.key}>{tt(f.ns, f.key, f.vars)}</li>
        ))}
      </ul>
    </section>
  );
}

export function Faqs({ faqs, text: { t, tt } }: { faqs: Contributed<'faqs'>[]; text: DocsText }) {
  return (
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
  );
}

export function Feedback({ links, text: { t, tt } }: { links: Contributed<'feedback'>[]; text: DocsText }) {
  return (
    <section id="feedback">
      <h2>{t('docs.section.feedback')}</h2>
      <ul className="feedback">
        {links.map((f) => (
          <li key={f.href}>
            <a href={f.href} target="_blank" rel="noopener noreferrer">
              {tt(f.ns, f.label)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
