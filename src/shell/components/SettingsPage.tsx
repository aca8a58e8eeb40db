import { useEffect, useState } from 'react';
import { findLanguage, outputToText, SETTINGS_LOCALES, type PluginHost, type SettingSpec } from '../../core/index.ts';
import { useHost, useNamespaces, useSetting, useShell, useT } from '../context.tsx';

/** Choices that come from a plugin (the models one may use...), listed when the page opens. */
function useSourceValues(host: PluginHost, spec: SettingSpec, owner: string): string[] {
  const [values, setValues] = useState<string[]>([]);
  useEffect(() => {
    const source = spec.page?.source;
    if (!source) return;
    let live = true;
    void host
      .completionProvider(source, owner)
      .then((provider) => provider?.(''))
      .then((list) => live && setValues(list ?? []), () => undefined);
    return () => {
      live = false;
    };
  }, [host, spec, owner]);
  return values;
}

function Choice({
  spec,
  owner,
  onChange,
}: {
  spec: SettingSpec;
  owner: string;
  onChange: (spec: SettingSpec, value: string | boolean) => void;
}) {
  const value = useSetting(spec.key);
  const t = useT();
  const host = useHost();
  const sourced = useSourceValues(host, spec, owner);
  const values = spec.page?.source ? sourced : spec.type === 'boolean' ? ['true', 'false'] : (spec.values ?? []);
  return (
    <div className="choices" role="group" aria-label={spec.key}>
      {values.map((v) => (
        <button
          key={v}
          type="button"
          data-setting={spec.key}
          data-value={v}
          aria-pressed={String(value) === v}
          onClick={() => onChange(spec, spec.type === 'boolean' ? v === 'true' : v)}
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
  const [answer, setAnswer] = useState('');
  const change = async (spec: SettingSpec, value: string | boolean) => {
    if (spec.page?.command) {
      // Through the command, so its rules (login, checks, messages) apply as if typed.
      const result = await host.run(spec.page.command.replace('{value}', String(value)));
      const errors = result.outputs.filter((o) => o.kind === 'error');
      setAnswer(result.outputs.map(outputToText).filter(Boolean).join('\n'));
      if (errors.length) return;
    } else {
      settings.set(spec.key, value);
      setAnswer('');
    }
    setUpdated(new Date());
  };
  const paged = settings
    .specs()
    .filter((s) => s.page)
    .sort((a, b) => (a.page!.order ?? 0) - (b.page!.order ?? 0));
  const langSpec = settings.specs().find((spec) => spec.key === 'lang')!;
  const owner = (key: string) => host.manifests.find((m) => m.settings?.some((s) => s.key === key))?.id ?? 'shell';
  return (
    <section className="page" data-testid="page-settings">
      <h1>{t('settings.title')}</h1>
      {paged.map((spec) => (
        <div key={spec.key} className="setting">
          <h2>{owner(spec.key) === 'shell' ? t(`settings.section.${spec.page!.section}`) : host.t(owner(spec.key))(`settings.${spec.key}`)}</h2>
          <Choice spec={spec} owner={owner(spec.key)} onChange={(sp, v) => void change(sp, v)} />
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
              onClick={() => void change(langSpec, code)}
            >
              {findLanguage(code)?.nativeName ?? code}
            </button>
          ))}
        </div>
      </div>
      {answer && <p className="settings-answer">{answer}</p>}
      {updated && (
        <p className="settings-updated" role="status">
          {t('settings.updated')} <time dateTime={updated.toISOString()}>{updated.toLocaleString()}</time>
        </p>
      )}
    </section>
  );
}
