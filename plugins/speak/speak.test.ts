import { describe, expect, it } from 'vitest';
import { builtinPlugin, createShellTester } from '../../tests/harness/shellTester.ts';
import { activateSpeak, type Speech } from './common/index.ts';
import { SentenceBuffer, splitSentences, stripEmoji } from './common/speechText.ts';

function fakeSpeech() {
  const spoken: { sentence: string; voice?: string; lang?: string }[] = [];
  let cancelled = 0;
  const speech: Speech = {
    voices: async () => [
      { name: 'Alice', lang: 'en-US' },
      { name: 'Google 日本語', lang: 'ja-JP' },
      { name: 'Daniel', lang: 'en_GB' },
    ],
    speak: (sentence, options) => spoken.push({ sentence, ...options }),
    cancel: () => cancelled++,
  };
  return { speech, spoken, cancelled: () => cancelled };
}

async function speakTester(settings: Record<string, unknown> = {}) {
  const fake = fakeSpeech();
  const entry = await builtinPlugin('speak', { activate: (ctx) => activateSpeak(ctx, fake.speech) });
  const t = await createShellTester({ plugins: [entry], settings });
  await t.host.activateStartup();
  return { t, ...fake };
}

describe('speech text (spec part 9)', () => {
  it('strips emoji', () => {
    expect(stripEmoji('Hello 👋🏽 world 🇯🇵!')).toBe('Hello world !');
  });
  it('splits on sentence punctuation, keeping the unfinished tail', () => {
    expect(splitSentences('One. Two! Three? Four')).toEqual({ sentences: ['One.', 'Two!', 'Three?'], rest: ' Four' });
    expect(splitSentences('你好。世界！还有')).toEqual({ sentences: ['你好。', '世界！'], rest: '还有' });
    expect(splitSentences('Version 1.5 is out. Yes')).toEqual({ sentences: ['Version 1.5 is out.'], rest: ' Yes' });
  });
  it('buffers streamed deltas into whole sentences', () => {
    const buffer = new SentenceBuffer();
    expect(buffer.push('Hel')).toEqual([]);
    expect(buffer.push('lo there. How ')).toEqual(['Hello there.']);
    expect(buffer.push('are you? 😀')).toEqual(['How are you?']);
    expect(buffer.flush()).toEqual([]);
  });
});

describe('speak plugin', () => {
  it(':speak on speaks streamed answers sentence by sentence with the chosen voice', async () => {
    const { t, spoken } = await speakTester({ lang: 'en-US' });
    expect((await t.run(':speak on')).text).toBe('Speak on.');
    expect((await t.run(':voice use "alice"')).text).toBe('Voice set to Alice (en-US).');
    t.events.emit('speak:text', 'First sentence. Sec');
    t.events.emit('speak:text', 'ond one');
    t.events.emit('speak:end', undefined);
    expect(spoken).toEqual([
      { sentence: 'First sentence.', voice: 'Alice', lang: 'en-US' },
      { sentence: 'Second one', voice: 'Alice', lang: 'en-US' },
    ]);
  });
  it('stays silent while speak is off, and Ctrl+C (speak:cancel) cancels', async () => {
    const { t, spoken, cancelled } = await speakTester();
    t.events.emit('speak:text', 'Not spoken. ');
    expect(spoken).toEqual([]);
    t.events.emit('speak:cancel', undefined);
    expect(cancelled()).toBe(1);
    expect((await t.run(':speak off')).text).toBe('Speak off.');
  });
  it(':voice, :voice ls for the current language, :voice reset', async () => {
    const { t } = await speakTester({ lang: 'en-GB' });
    expect((await t.run(':voice')).text).toBe('Voice: default');
    expect((await t.run(':voice ls')).text).toBe('Voices:\n\\Alice \\Daniel');
    await t.run(':voice use "Daniel"');
    expect((await t.run(':voice')).text).toBe('Voice: Daniel (en_GB)');
    expect((await t.run(':voice list')).text).toBe('Voices:\n\\Alice *\\Daniel');
    expect((await t.run(':voice reset')).text).toBe('Voice reset to the default.');
    expect(t.settings.get('voice')).toBe('default');
  });
  it("answers 'Voice not found.'", async () => {
    const { t } = await speakTester();
    expect((await t.run(':voice use "Nobody"')).errors).toEqual(['Voice not found.']);
  });
});

describe('browser speech', () => {
  it('speaks with volume 0.7, rate 1 and pitch 1.1 in the chosen voice and language', async () => {
    const { createBrowserSpeech } = await import('./client/index.ts');
    const voices = [{ name: 'Kyoko', lang: 'ja-JP' }] as SpeechSynthesisVoice[];
    const spoken: SpeechSynthesisUtterance[] = [];
    let cancelled = false;
    const synth = { getVoices: () => voices, speak: (u: SpeechSynthesisUtterance) => spoken.push(u), cancel: () => (cancelled = true) };
    class FakeUtterance {
      text: string;
      volume = 1;
      rate = 1;
      pitch = 1;
      lang = '';
      voice: unknown = null;
      constructor(text: string) {
        this.text = text;
      }
    }
    const speech = createBrowserSpeech(synth as unknown as SpeechSynthesis, FakeUtterance as unknown as typeof SpeechSynthesisUtterance);
    expect(await speech.voices()).toEqual([{ name: 'Kyoko', lang: 'ja-JP' }]);
    speech.speak('こんにちは。', { voice: 'Kyoko', lang: 'ja-JP' });
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toMatchObject({ text: 'こんにちは。', volume: 0.7, rate: 1, pitch: 1.1, lang: 'ja-JP', voice: voices[0] });
    speech.cancel();
    expect(cancelled).toBe(true);
  });
});
