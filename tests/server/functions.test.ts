// The built-in functions (spec part 9) on the real server: POST /api/function/exec (login
// required, the spec's "name(jsonargs)" strings and the structured form, in parallel), each
// built-in against fake data sources speaking the real formats (Open-Meteo, Wolfram|Alpha),
// and a model-driven weather call through the tool-call loop: logged, counted in stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionResult, GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startFakeWeather, type FakeWeather } from '../fixtures/fakeWeather.ts';
import { startFakeWolfram, type FakeWolfram } from '../fixtures/fakeWolfram.ts';
import { failure, startTestServer, type TestServer } from './support.ts';

type Client = ReturnType<TestServer['client']>;

let fake: FakeOpenAI;
let weather: FakeWeather;
let wolfram: FakeWolfram;
let t: TestServer;
/** The same server without WOLFRAM_APP_ID. */
let bare: TestServer;
let ada: Client;
let adaBare: Client;

beforeAll(async () => {
  [fake, weather, wolfram] = await Promise.all([startFakeOpenAI(), startFakeWeather(), startFakeWolfram()]);
  const env = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', GEOCODING_BASE_URL: weather.url, WEATHER_BASE_URL: weather.url, WOLFRAM_BASE_URL: wolfram.url };
  [t, bare] = await Promise.all([startTestServer('sqlite', { ...env, WOLFRAM_APP_ID: wolfram.appId }), startTestServer('sqlite', env)]);
  const login = async (server: TestServer) => {
    await server.server.accounts.create({ username: 'ada', email: 'ada@example.org', password: 'ada-password-1' });
    const client = server.client();
    await client.post('/api/user/login', { username: 'ada', password: 'ada-password-1' });
    return client;
  };
  [ada, adaBare] = await Promise.all([login(t), login(bare)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([t?.close(), bare?.close(), fake?.close(), weather?.close(), wolfram?.close()]);
});

async function exec(client: Client, functions: unknown[]): Promise<FunctionResult[]> {
  const answer = (await client.post('/api/function/exec', { functions })) as { success: boolean; error: string; function_results: FunctionResult[] };
  expect(answer.success).toBe(true);
  expect(answer.error).toBe('');
  return answer.function_results;
}

describe('POST /api/function/exec', () => {
  it('requires a login', async () => {
    expect(await failure(t.client().post('/api/function/exec', { functions: ['get_time({"timezone":"UTC"})'] }))).toEqual({ status: 401, error: 'Please login.' });
  });

  it('runs "name(jsonargs)" strings and structured calls in parallel, in order', async () => {
    const results = await exec(ada, ['get_time({"timezone":"Asia/Tokyo"})', { name: 'get_time', args: { timezone: 'UTC' } }]);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ success: true, function: 'get_time({"timezone":"Asia/Tokyo"})' });
    expect(results[0]!.message).toMatch(/^The current time in Asia\/Tokyo is .*GMT\+9\.$/);
    expect(results[1]!.message).toMatch(/^The current time in UTC is .*UTC\.$/);
  });

  it('reports bad calls per function, clearly', async () => {
    const results = await exec(ada, ['get_time', 'get_time({timezone: UTC})', 'nope({})', 'get_time({"timezone":"Mars/Base"})']);
    expect(results.map((r) => r.success)).toEqual([false, false, false, false]);
    expect(results[0]!.error).toBe('Function invalid.');
    expect(results[1]!.error).toMatch(/^Invalid arguments for get_time: The arguments are not valid JSON/);
    expect(results[2]!.error).toBe('Function not found.');
    expect(results[3]!.error).toBe('Unknown time zone "Mars/Base".');
  });

  it('refuses an empty or oversized list', async () => {
    expect((await failure(ada.post('/api/function/exec', { functions: [] }))).status).toBe(400);
    expect((await failure(ada.post('/api/function/exec', { functions: Array(11).fill('get_time({})') }))).status).toBe(400);
  });
});

describe('built-ins', () => {
  it('get_weather geocodes, then reads the forecast', async () => {
    const [r] = await exec(ada, ['get_weather({"location":"Paris"})']);
    expect(r!.success).toBe(true);
    expect(r!.message).toContain('Current weather in Paris, Île-de-France, France: 12.3°C, partly cloudy, wind 9.7 km/h.');
    expect(r!.message).toContain('2026-11-22: slight rain, 6.9°C to 11.8°C.');
    const forecast = weather.requests.filter((u) => u.pathname === '/v1/forecast').at(-1)!;
    expect(forecast.searchParams.get('latitude')).toBe('48.85341');
    expect(forecast.searchParams.get('current')).toBe('temperature_2m,weather_code,wind_speed_10m');
    const [missing] = await exec(ada, ['get_weather({"location":"Atlantis"})']);
    expect(missing).toMatchObject({ success: false, error: 'Location "Atlantis" not found.' });
    const [none] = await exec(ada, ['get_weather({})']);
    expect(none).toMatchObject({ success: false, error: 'The argument "location" is required.' });
  });

  it('ask_wolframalpha answers plaintext pods, falls back to the keyword, and needs an AppID', async () => {
    const [r] = await exec(ada, [{ name: 'ask_wolframalpha', args: { query: 'population of France' } }]);
    expect(r!.message).toBe('Input interpretation: France | population\nResult: 68.4 million people (2024 estimate)');
    expect(wolfram.requests.at(-1)!.searchParams.get('appid')).toBe(wolfram.appId);
    expect(wolfram.requests.at(-1)!.searchParams.get('output')).toBe('json');
    const [fallback] = await exec(ada, [{ name: 'ask_wolframalpha', args: { query: 'how big is the french republic really', keyword: 'France' } }]);
    expect(fallback!.message).toBe('Result: France (country)');
    const [nothing] = await exec(ada, [{ name: 'ask_wolframalpha', args: { query: 'zzz' } }]);
    expect(nothing!.error).toBe('Wolfram|Alpha has no answer for "zzz".');
    const [unset] = await exec(adaBare, [{ name: 'ask_wolframalpha', args: { query: 'integrate x^2' } }]);
    expect(unset!.error).toBe('Wolfram|Alpha is not configured on this server (WOLFRAM_APP_ID is not set).');
  });

  it('redirect_to_url returns a redirect event for http(s) URLs only, without fetching them', async () => {
    const before = weather.requests.length;
    const [r, same, bad] = await exec(ada, [
      'redirect_to_url({"url":"https://example.org/page"})',
      `redirect_to_url({"url":"${weather.url}/v1/search?name=x","blank":false})`,
      'redirect_to_url({"url":"javascript:alert(1)"})',
    ]);
    expect(r).toMatchObject({ success: true, event: { name: 'redirect', parameters: { url: 'https://example.org/page', blank: true } } });
    expect(same).toMatchObject({ success: true, event: { name: 'redirect', parameters: { blank: false } } });
    expect(weather.requests.length).toBe(before);
    expect(bad).toMatchObject({ success: false, error: 'URL must start with http or https.' });
    expect(bad).not.toHaveProperty('event');
  });
});

describe('model-driven calls', () => {
  const SESSION = Date.now() - 5_000_000;

  async function ask(body: Record<string, unknown>) {
    const events: GenerationEvent[] = [];
    await streamGeneration({ user_input: 'q', ...body } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: ada.raw,
    });
    return events;
  }

  it('runs get_weather on the server when the model calls it, logs the call and shows it in stats', async () => {
    fake.reply({ toolCalls: [{ name: 'get_weather', arguments: '{"location":"Paris"}' }] });
    fake.reply((req) => ({ text: `Here it is: ${String(req.body.messages.at(-1).content).split('\n')[0]}` }));
    const events = await ask({ session: SESSION, user_input: 'Weather in Paris?', functions: 'get_time,get_weather', use_stats: true });
    const text = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('');
    expect(text).toBe('Here it is: Current weather in Paris, Île-de-France, France: 12.3°C, partly cloudy, wind 9.7 km/h.');
    const first = fake.requests.at(-2)!.body;
    expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name).sort()).toEqual(['get_time', 'get_weather']);
    const stats = events.filter((e) => e.type === 'stats').at(-1) as { stats: { func: string } };
    expect(stats.stats.func).toBe('get_weather');
    const log = await t.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION).executeTakeFirstOrThrow();
    expect(JSON.parse(log.tools)).toEqual([expect.objectContaining({ name: 'get_weather', args: '{"location":"Paris"}', result: expect.stringContaining('12.3°C') })]);
  });

  it('offers only the functions the request names', async () => {
    fake.reply({ text: 'no tools' });
    await ask({ session: SESSION + 1, functions: 'get_time' });
    expect(fake.requests.at(-1)!.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['get_time']);
  });

  it('passes a redirect from the model to the browser as an event', async () => {
    fake.reply({ toolCalls: [{ name: 'redirect_to_url', arguments: '{"url":"https://example.org","blank":true}' }] });
    fake.reply({ text: 'Opened.' });
    const events = await ask({ session: SESSION + 2, functions: 'redirect_to_url' });
    expect(events).toContainEqual({ type: 'event', event: { name: 'redirect', parameters: { url: 'https://example.org/', blank: true } } });
  });
});
