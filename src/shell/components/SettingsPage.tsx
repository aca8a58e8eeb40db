import { useEffect, useState } from 'react';
import { findLanguage, languageName, outputToText, SETTINGS_LOCALES, type ChoiceGroup, type SettingSpec } from '../../core/host/index.ts';
import { useHost, useNamespaces, useSetting, useShell, useT } from '../context.tsx';

/** The interface's language, for names of languages and the time of 'Settings updated.'. */
const uiLanguage = () => document.documentElement.lang || undefined;


/** The choices of a setting: its plugin's groups (models by scope...), else its declared values. */
function useChoices(spec: SettingSpec): ChoiceGroup[] | undefined {
  const host = useHost();
  const user = useSetting<string>('user');
  const [groups, setGroups] = useState<ChoiceGroup[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const declared = spec.key === 'lang' ? [...SETTINGS_LOCALES] : spec.type === 'boolean' ? ['true', 'false'] : [...(spec.values ?? [])];
    void host
      .choicesFor(spec.key)
      .then((served) => live && setGroups(served ?? [{ title: '', values: declared }]))
      .catch(() => live && setGroups([]));
    return () => {
      live = false;
    };
    // The lists depend on who is logged in (their own models, roles, stores...).
  }, [host, spec, user]);
  return groups;
}

type Pick = (spec: SettingSpec, value: string) => void;

/** One setting: a heading, then a group of buttons per kind of choice; pressed ones are in use. */
function Section({ spec, title, onPick }: { spec: SettingSpec; title: string; onPick: Pick }) {
  const value = useSetting(spec.key);
  const t = useT();
  const groups = useChoices(spec)?.filter((g) => g.values.length);
  if (!groups?.length) return null;
  const multiple = spec.page?.multiple !== undefined;
  // At its default a setting still has a value in use (the interface's language, the server's
  // default model): that one shows as picked, as it is (nothing was picked before).
  const atDefault = value === spec.default;
  const byDefault = !atDefault ? [] : spec.key === 'lang' ? [uiLanguage() ?? ''] : groups.flatMap((g) => g.byDefault ?? []);
  const current = multiple ? String(value).split(',').filter(Boolean) : [String(value), ...byDefault];
  const label = (v: string) =>
    spec.key === 'lang' ? (findLanguage(v)?.nativeName ?? v) : t(`settings.value.${v}`, { defaultValue: v });
  const pick = (v: string) => {
    if (!multiple) return onPick(spec, v);
    // Several at once: a pick adds or removes one; the plugin's rules decide (three stores at most).
    onPick(spec, current.includes(v) ? current.filter((x) => x !== v).join(',') : [...current, v].join(','));
  };
  return (
    <section className="setting" aria-labelledby={`setting-${spec.key}`}>
      <h2 id={`setting-${spec.key}`}>{title}</h2>
      {groups.map((group) => (
        <div key={group.title} className="choice-group">
          {group.title && <h3>{group.title}</h3>}
          <div className="choices" role="group" aria-label={group.title || title}>
            {group.values.map((v) => (
              <button
                key={v}
                type="button"
                data-setting={spec.key}
                data-value={v}
                aria-pressed={current.includes(v)}
                title={spec.key === 'lang' ? languageName(v, uiLanguage() ?? '') : undefined}
                lang={spec.key === 'lang' ? v : undefined}
                onClick={() => pick(v)}
              >
                {label(v)}
              </button>
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}

/**
 * The Settings page (spec part 2): the shell's theme and language, and every setting a plugin
 * puts on the page (`page` in its manifest), with the choices the plugin serves (ctx.choices):
 * a plugin left out leaves no section. A pick goes through the plugin's setter (the rules of
 * its command apply: `:model use`, three stores at most...), and says 'Settings updated.' with
 * the time, or what was wrong.
 */
export function SettingsPage() {
  const { settings } = useShell();
  const host = useHost();
  const t = useT();
  useNamespaces(host.manifests.map((m) => m.id));
  const user = useSetting<string>('user');
  const [updated, setUpdated] = useState<Date | null>(null);
  const [answer, setAnswer] = useState('');
  const pick: Pick = async (spec, value) => {
    const outputs = await host.setThroughOwner(spec.key, value);
    if (!outputs) settings.set(spec.key, value);
    setAnswer((outputs ?? []).map(outputToText).filter(Boolean).join('\n'));
    if (outputs?.some((o) => o.kind === 'error')) return setUpdated(null);
    setUpdated(new Date());
  };
  const paged = settings
    .specs()
    .filter((s) => s.page && (!s.page.login || user))
    .sort((a, b) => (a.page!.order ?? 0) - (b.page!.order ?? 0));
  const title = (spec: SettingSpec) => {
    const owner = host.settingOwner(spec.key);
    return owner ? host.t(owner)(`settings.${spec.key}`) : t(`settings.section.${spec.key === 'lang' ? 'language' : spec.key}`);
  };
  return (
    <section className="page" data-testid="page-settings">
      <h1>{t('settings.title')}</h1>
      {paged.map((spec) => (
        <Section key={spec.key} spec={spec} title={title(spec)} onPick={(s, v) => void pick(s, v)} />
      ))}
      <div aria-live="polite">
        {answer && <p className="settings-answer">{answer}</p>}
        {updated && (
          <p className="settings-updated" role="status">
            {t('settings.updated')} <time dateTime={updated.toISOString()}>{updated.toLocaleString(uiLanguage())}</time>
          </p>
        )}
      </div>
    </section>
  );
}
