import { useShellState, useT } from '../context.tsx';

/** The four points of the privacy policy (spec part 2). */
export function PrivacyPage() {
  const t = useT();
  const contact = useShellState((s) => s.systemInfo.contact_email) || 'privacy@shellchat.dev';
  return (
    <section className="page" data-testid="page-privacy">
      <h1>{t('privacy.title')}</h1>
      <ol>
        <li>{t('privacy.email')}</li>
        <li>{t('privacy.notSold')}</li>
        <li>{t('privacy.deletion')}</li>
        <li>
          {t('privacy.contact')} <a href={`mailto:${contact}`}>{contact}</a>
        </li>
      </ol>
    </section>
  );
}
