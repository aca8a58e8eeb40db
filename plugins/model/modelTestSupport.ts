// Shared setup of the model command tests (model.*.test.ts): the real server over HTTP (SQLite),
// once with EGRESS_ALLOW_HOSTS letting user models reach the user's provider and once without
// (`strict`), real-wire fake providers (the system one, the user's own, a local Ollama), and
// shell testers on the model plugin, signed up or anonymous. Each test file starts its own set.
import { expect } from 'vitest';
import type { GenerationEvent, PublicModel } from '../../src/core/index.ts';
import { startFakeOllama, type FakeOllama } from '../../tests/fixtures/fakeOllama.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

export const PW = 'hunter2hunter2';
export const SYSTEM_KEY = 'sk-system-key-0123456789';
export const SYSTEM_KEY_2 = 'sk-system-two-0123456789';
export const USER_KEY = 'sk-user-secret-key-ABCDEFGH';
export const SESSION = 1_800_000_000_000;
/** A port nothing listens on: the local model server is down. */
export const CLOSED = 'http://127.0.0.1:9';

export let system: FakeOpenAI;
export let userProvider: FakeOpenAI;
export let ollama: FakeOllama;
export let server: TestServer;
/** The same configuration without EGRESS_ALLOW_HOSTS. */
export let strict: TestServer;

/** Starts the fake providers and both servers; for beforeAll, with stopModelServers in afterAll. */
export async function startModelServers(): Promise<void> {
  [system, userProvider, ollama] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOllama()]);
  const env = {
    MODEL: 'gpt-4o-mini',
    OPENAI_BASE_URL: system.url,
    OPENAI_API_KEY: SYSTEM_KEY,
    MODELS: JSON.stringify([{ name: 'second', base_url: system.url, api_key: SYSTEM_KEY_2, model: 'gpt-4o' }]),
  };
  [server, strict] = await Promise.all([
    startTestServer('sqlite', { ...env, EGRESS_ALLOW_HOSTS: new URL(userProvider.url).host }),
    startTestServer('sqlite', env),
  ]);
}

export async function stopModelServers(): Promise<void> {
  await Promise.all([server?.close(), strict?.close(), system?.close(), userProvider?.close(), ollama?.close()]);
}

export type Tester = Awaited<ReturnType<typeof createShellTester>>;

export const tester = (options: { ollamaUrl?: string; serverUrl?: string; settings?: Record<string, unknown> } = {}) =>
  createShellTester({
    plugins: ['general', 'user', 'model'],
    serverUrl: options.serverUrl ?? server.url,
    systemInfo: { ollama_url: options.ollamaUrl ?? ollama.url },
    settings: options.settings,
  });

let seq = 0;
/** A number not used before in this file: for unique user names. */
export const nextSeq = () => ++seq;
export async function signedUp(options: Parameters<typeof tester>[0] = {}, target = server): Promise<Tester & { username: string }> {
  const username = `modeler${nextSeq()}`;
  const t = await tester({ ...options, serverUrl: target.url });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return Object.assign(t, { username });
}

export const answerText = (events: GenerationEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
export const lastJson = (outputs: { kind: string }[]) => (outputs.filter((o) => o.kind === 'json').at(-1) as { value: PublicModel } | undefined)?.value;
