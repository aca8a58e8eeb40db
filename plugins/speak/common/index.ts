import { error, text, type PluginContext } from '../../../src/core/index.ts';
import { SentenceBuffer } from './speechText.ts';

export interface Voice {
  name: string;
  lang: string;
}

/** What speaking needs from the platform: the browser's speechSynthesis, or a fake in tests. */
export interface Speech {
  voices(): Promise<Voice[]>;
  speak(sentence: string, options: { voice?: string; lang?: string }): void;
  cancel(): void;
}

function forLanguage(voices: Voice[], lang: string): Voice[] {
  if (!lang) return voices;
  const base = lang.split('-')[0]!.toLowerCase();
  const same = voices.filter((v) => v.lang.toLowerCase().replace('_', '-').split('-')[0] === base);
  return same.length ? same : voices;
}

export function activateSpeak(ctx: PluginContext, speech: Speech): void {
  const buffer = new SentenceBuffer();
  const say = (sentences: string[]) => {
    if (!ctx.settings.get<boolean>('useSpeak')) return;
    const voice = ctx.settings.get<string>('voice');
    for (const sentence of sentences) {
      speech.speak(sentence, { voice: voice === 'default' ? undefined : voice, lang: ctx.settings.get<string>('lang') || undefined });
    }
  };
  // Sentences are only cut while speaking is on (a fast answer sends a thousand pieces a second).
  const onText = (delta: string) => {
    if (ctx.settings.get<boolean>('useSpeak')) say(buffer.push(delta));
    else buffer.clear();
  };
  const onEnd = () => say(buffer.flush());
  const onCancel = () => {
    buffer.clear();
    speech.cancel();
  };
  ctx.events.on('speak:text', onText);
  ctx.events.on('speak:end', onEnd);
  ctx.events.on('speak:cancel', onCancel);
  ctx.onDispose(() => {
    ctx.events.off('speak:text', onText);
    ctx.events.off('speak:end', onEnd);
    ctx.events.off('speak:cancel', onCancel);
  });

  ctx.completion('voice', async () => (await speech.voices()).map((v) => v.name));

  ctx.handle('speak', (c) => {
    const on = c.args.state === 'on';
    c.settings.set('useSpeak', on);
    if (!on) onCancel();
    return text(c.t(on ? 'msg.speakOn' : 'msg.speakOff'));
  });
  ctx.handle('voice', async (c) => {
    const name = c.settings.get<string>('voice');
    if (name === 'default') return text(c.t('msg.voiceDefault'));
    const voice = (await speech.voices()).find((v) => v.name === name);
    return text(c.t('msg.voice', { name, lang: voice?.lang ?? '?' }));
  });
  ctx.handle('voice.ls', async (c) => {
    const current = c.settings.get<string>('voice');
    const voices = forLanguage(await speech.voices(), c.settings.get<string>('lang'));
    return {
      kind: 'list',
      title: c.t('msg.voiceList'),
      items: voices.map((v) => ({ text: v.name, active: v.name === current })),
      empty: c.t('msg.noVoices'),
    };
  });
  ctx.handle('voice.use', async (c) => {
    const wanted = (c.args.name ?? '').trim();
    const voices = await speech.voices();
    const voice = voices.find((v) => v.name === wanted) ?? voices.find((v) => v.name.toLowerCase() === wanted.toLowerCase());
    if (!voice) return error(c.t('msg.voiceNotFound'));
    c.settings.set('voice', voice.name);
    return text(c.t('msg.voiceSet', { name: voice.name, lang: voice.lang }));
  });
  ctx.handle('voice.reset', (c) => {
    c.settings.reset('voice');
    return text(c.t('msg.voiceReset'));
  });
}
