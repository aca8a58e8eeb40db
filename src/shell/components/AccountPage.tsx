import { useSetting, useT } from '../context.tsx';

/**
 * Usage and Subscriptions pages. Their content belongs to the usage and subscription
 * plugins; without a logged-in user both show the spec's not-logged-in message.
 */
export function AccountPage({ testid, title }: { testid: string; title: string }) {
  const user = useSetting<string>('user');
  const t = useT();
  return (
    <section className="page" data-testid={testid}>
      <h1>{title}</h1>
      {!user && <p>{t('usage.notLoggedIn')}</p>}
    </section>
  );
}
