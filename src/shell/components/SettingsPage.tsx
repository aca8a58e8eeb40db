import { useState } from 'react';
import { findLanguage, SETTINGS_LOCALES, type SettingSpec } from '../../core/index.ts';
import { useHost, useNamespaces, useSetting, useShell, useT } from '../context.tsx';

function Choice({ spec, onChange }: { spec: SettingSpec; onChange: (key: string, value: string | boolean) => void }) {
  const value = useSetting(spec.key);
  const t = useT();
  const values = spec.type === 'boolean' ? ['true', 'false'] : (spec.values ?? []);
  return (
    <div className="choices" role="group" aria-label={spec.key}>
      {values.map((v) => (
        <button
          key={v}
          type="button"
          data-setting={spec.key}
          data-value={v}
          aria-pressed={String(value) === v}
          onClick={() => onChange(spec.key, spec.type === 'boolean' ? v === 'true' : v)}
        >
          {t(`settings.value.${v}`, { defaultValue: v })}
        </button>
      ))}
    </div>
  );
}

/**
 * The Settings page: theme and language from the shell, then every setting a plugin puts on
 * the page (`page` in its manifest). Each change says 'Settings updated.' with the time.
 */
export function SettingsPage() {
  const { settings } = useShell();
  const host = useHost();
  const t = useT();
  useNamespaces(host.manifests.map((m) => m.id));
  const lang = useSetting<string>('lang');
  const [updated, setUpdated] = useState<Date | null>(null);
  const change = (key: string, value: string | boolean) => {
    settings.set(key, value);
    setUpdated(new Date());
  };
  const paged = settings
    .specs()
    .filter((s) => s.page)
    .sort((a, b) => (a.page!.order ?? 0) - (b.page!.order ?? 0));
  const owner = (key: string) => host.manifests.find((m) => m.settings?.some((s) => s.key === key))?.id ?? 'shell';
  return (
    <section className="page" data-testid="page-settings">
      <h1>{t('settings.title')}</h1>
      {paged.map((spec) => (
        <div key={spec.key} className="setting">
          <h2>{owner(spec.key) === 'shell' ? t(`settings.section.${spec.page!.section}`) : host.t(owner(spec.key))(`settings.${spec.key}`)}</h2>
          <Choice spec={spec} onChange={change} />
        </div>
      ))}
      <div className="setting">
        <h2>{t('settings.section.language')}</h2>
        <div className="choices" role="group" aria-label="lang">
          {SETTINGS_LOCALES.map((code) => (
            <button
              key={code}
              type="button"
              data-setting="lang"
              data-value={code}
              aria-pressed={lang === code}
              title={findLanguage(code)?.name}
              onClick={() => change('lang', code)}
            >
              {findLanguage(code)?.nativeName ?? code}
            </button>
          ))}
        </div>
      </div>
      {updated && (
        <p className="settings-updated" role="status">
          {t('settings.updated')} <time dateTime={updated.toISOString()}>{updated.toLocaleString()}</time>
        </p>
      )}
    </section>
  );
}
