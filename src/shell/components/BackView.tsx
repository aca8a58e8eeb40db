import { COPYRIGHT_YEAR, type BackPage } from '../../core/index.ts';
import { useHost, useShell, useShellState, useT } from '../context.tsx';
import { DocumentationPage } from './DocumentationPage.tsx';
import { PrivacyPage } from './PrivacyPage.tsx';
import { SettingsPage } from './SettingsPage.tsx';
import { PluginPage } from './PluginPage.tsx';

/** Back view navigation. Usage and Subscriptions appear only when system info enables them and their plugin (user, subscription) is installed. */
export function BackView() {
  const page = useShellState((s) => s.page);
  const info = useShellState((s) => s.systemInfo);
  const focus = useShellState((s) => s.pageFocus);
  const { controller } = useShell();
  const host = useHost();
  const t = useT();
  const items: { page: BackPage; testid: string; label: string }[] = [
    { page: 'documentation', testid: 'nav-documentation', label: t('nav.documentation') },
    ...(info.use_payment && host.pageOwner('usage') ? [{ page: 'usage' as const, testid: 'nav-usage', label: t('nav.usage') }] : []),
    // Shown when the operator turned subscriptions on and the subscription plugin is installed.
    ...(info.use_subscriptions && host.pageOwner('subscriptions')
      ? [{ page: 'subscriptions' as const, testid: 'nav-subscriptions', label: t('nav.subscriptions') }]
      : []),
    { page: 'settings', testid: 'nav-settings', label: t('nav.settings') },
    { page: 'privacy', testid: 'nav-privacy', label: t('nav.privacy') },
  ];
  const shown = items.some((i) => i.page === page) ? page : 'documentation';
  return (
    <div className="back">
      <nav className="back-nav">
        {items.map((item) => (
          <button
            key={item.page}
            type="button"
            data-testid={item.testid}
            aria-current={shown === item.page ? 'page' : undefined}
            onClick={() => controller.setView('back', item.page)}
          >
            {item.label}
          </button>
        ))}
      </nav>
      <div className="back-page">
        {shown === 'documentation' && <DocumentationPage />}
        {shown === 'settings' && <SettingsPage />}
        {shown === 'privacy' && <PrivacyPage />}
        {shown === 'usage' && <PluginPage page="usage" testid="page-usage" />}
        {shown === 'subscriptions' && <PluginPage page="subscriptions" focus={focus} testid="page-subscriptions" />}
      </div>
      <footer className="back-footer" data-testid="copyright">
        © {COPYRIGHT_YEAR} shellchat
      </footer>
    </div>
  );
}
