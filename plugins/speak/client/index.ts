// Browser entry of the speak plugin: speechSynthesis with the spec's volume, rate and pitch.
import { definePluginModule, SPEECH } from '../../../src/core/index.ts';
import { activateSpeak, type Speech } from '../common/index.ts';

/** Voices load asynchronously in Chromium; wait briefly for the first `voiceschanged`. */
function loadVoices(synth: SpeechSynthesis | undefined): Promise<SpeechSynthesisVoice[]> {
  if (!synth) return Promise.resolve([]);
  const now = synth.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => resolve(synth.getVoices());
    synth.addEventListener?.('voiceschanged', done, { once: true });
    setTimeout(done, 1000);
  });
}

/** Speech over the Web Speech API; the globals are parameters so tests can pass fakes. */
export function createBrowserSpeech(
  synth: SpeechSynthesis | undefined = globalThis.speechSynthesis,
  Utterance: typeof SpeechSynthesisUtterance | undefined = globalThis.SpeechSynthesisUtterance,
): Speech {
  return {
    voices: async () => (await loadVoices(synth)).map((v) => ({ name: v.name, lang: v.lang })),
    speak(sentence, { voice, lang }) {
      if (!synth || !Utterance) return;
      const utterance = new Utterance(sentence);
      utterance.volume = SPEECH.volume;
      utterance.rate = SPEECH.rate;
      utterance.pitch = SPEECH.pitch;
      if (lang) utterance.lang = lang;
      const match = voice ? synth.getVoices().find((v) => v.name === voice) : undefined;
      if (match) utterance.voice = match;
      synth.speak(utterance);
    },
    cancel() {
      synth?.cancel();
    },
  };
}

export default definePluginModule({ activate: (ctx) => activateSpeak(ctx, createBrowserSpeech()) });
