// Browser entry of the speak plugin: speechSynthesis with the spec's volume, rate and pitch.
import { definePluginModule, SPEECH } from '../../../src/core/index.ts';
import { activateSpeak, type Speech } from '../common/index.ts';

/** Voices load asynchronously in Chromium; wait briefly for the first `voiceschanged`. */
function loadVoices(): Promise<SpeechSynthesisVoice[]> {
  const synth = globalThis.speechSynthesis;
  if (!synth) return Promise.resolve([]);
  const now = synth.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => resolve(synth.getVoices());
    synth.addEventListener('voiceschanged', done, { once: true });
    setTimeout(done, 1000);
  });
}

const browserSpeech: Speech = {
  voices: async () => (await loadVoices()).map((v) => ({ name: v.name, lang: v.lang })),
  speak(sentence, { voice, lang }) {
    const synth = globalThis.speechSynthesis;
    if (!synth) return;
    const utterance = new SpeechSynthesisUtterance(sentence);
    utterance.volume = SPEECH.volume;
    utterance.rate = SPEECH.rate;
    utterance.pitch = SPEECH.pitch;
    if (lang) utterance.lang = lang;
    const match = voice ? synth.getVoices().find((v) => v.name === voice) : undefined;
    if (match) utterance.voice = match;
    synth.speak(utterance);
  },
  cancel() {
    globalThis.speechSynthesis?.cancel();
  },
};

export default definePluginModule({ activate: (ctx) => activateSpeak(ctx, browserSpeech) });
