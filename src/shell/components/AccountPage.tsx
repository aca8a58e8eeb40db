import { useSetting, useT } from '../context.tsx';

/**
 * The Subscriptions page: plans and purchases need a payment provider, which shellchat does not
 * have yet; without a logged-in user it shows the spec's not-logged-in message.
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
