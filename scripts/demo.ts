// `npm run demo`: the app wired to the fake OpenAI-compatible server and the fake PayPal (REST
// API and JS SDK) from tests/fixtures, so a newcomer can try the interface, buy a plan and top
// up without a key or an account anywhere. The UI labels it as a demo double.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { paypalEnv, startFakePaypal } from '../tests/fixtures/fakePaypal.ts';
import type { RecordedRequest } from '../tests/fixtures/fakeOpenAI.ts';
import { lastUserText } from '../tests/fixtures/fakeOpenAI.ts';
import { png } from '../tests/fixtures/png.ts';
import { EVAL_PROMPT } from '../src/server/turn/evaluate.ts';

const root = path.resolve(import.meta.dirname, '..');

/** A reply that shows what the renderer can do: markdown, a table, code and math. */
function demoReply(req: RecordedRequest) {
  // The demo painter (an image model): a picture whose colours come from the prompt's letters.
  if (req.path.startsWith('/v1/images/')) {
    const seed = [...String(req.body.prompt ?? '')].reduce((n, ch) => (n * 31 + ch.charCodeAt(0)) % 360, 7);
    return { images: [png(256, 256, (x, y) => [(x + seed) % 256, (y * 2 + seed) % 256, (x + y + seed * 3) % 256]).toString('base64')] };
  }
  // The self-evaluation call (`:eval on`): a reply in the judge's format, so that the score
  // block shows how a real judge's score looks.
  const system = (req.body.messages as { role: string; content: unknown }[] | undefined)?.find((m) => m.role === 'system');
  if (system?.content === EVAL_PROMPT) {
    return { text: '7 - The demo double cannot judge answers: this score is an example.' };
  }
  const question = lastUserText(req.body) || '(nothing)';
  // What the question carried: uploaded images arrive inline, files as text in the question.
  const last = (req.body.messages as { role: string; content: unknown }[] | undefined)?.filter((m) => m.role === 'user').at(-1);
  const images = Array.isArray(last?.content) ? last.content.filter((p: { type?: string }) => p.type === 'image_url').length : 0;
  const files = (question.match(/^File content \(/gm) ?? []).length;
  const carried = [images ? `${images} image(s)` : '', files ? `${files} file(s), read as text` : ''].filter(Boolean).join(' and ');
  return {
    delayMs: 12,
    text: [
      `This is the **demo double**: no real model is answering. You asked:`,
      '',
      `> ${(question.split(/\n\nFile content \(/)[0] || '(nothing)').replace(/\n/g, '\n> ')}`,
      '',
      ...(carried ? [`It came with ${carried}.`, ''] : []),
      '| Try | What it does |',
      '| --- | --- |',
      '| `:help` | every command |',
      '| `:theme terminal` | the terminal theme |',
      '| `:stats on` | stats under each answer |',
      '',
      '```ts',
      "const greet = (name: string) => `Hello, ${name}!`;",
      '```',
      '',
      'And some math: $e^{i\\pi} + 1 = 0$.',
    ].join('\n'),
  };
}

const fake = await startFakeOpenAI({ models: ['demo-model'] });
const paypal = await startFakePaypal();
fake.always(demoReply);
const env = {
  ...process.env,
  MODEL: 'demo-model',
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'demo',
  // The double takes images, so attaching one can be tried too, and it paints
  // (`:model use "demo-painter"`, then describe a picture).
  MODEL_VISION: 'true',
  MODELS: process.env.MODELS || JSON.stringify([{ name: 'demo-painter', provider: 'openai-compatible', model: 'gpt-image-1', base_url: fake.url, api_key: 'demo', capabilities: { image: true } }]),
  SHELLCHAT_DEMO: 'true',
  // Plans and top-ups, paid with the fake PayPal (its button says "PayPal (demo)").
  ...paypalEnv(paypal),
  USE_PAYMENT: process.env.USE_PAYMENT || 'true',
  TRIAL_BALANCE: process.env.TRIAL_BALANCE || '1',
  DATA_DIR: process.env.DATA_DIR || mkdtempSync(path.join(tmpdir(), 'shellchat-demo-')),
  ROOT_PASSWORD: process.env.ROOT_PASSWORD || 'demo-root-password',
};
console.log(`Demo model server (fake, OpenAI wire format) at ${fake.url}; demo PayPal at ${paypal.url}`);
const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.ts')], { cwd: root, env, stdio: 'inherit' });
const stop = () => {
  child.kill('SIGTERM');
  void fake.close();
  void paypal.close();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => {
  void fake.close().finally(() => process.exit(code ?? 0));
});
