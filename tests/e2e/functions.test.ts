// Functions in the browser against the real server: a direct `!get_time` call, a redirect that
// opens a new page, and a model-driven weather answer (the fake OpenAI calls get_weather, the
// server runs it against the fake Open-Meteo API, and the answer uses the result).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startFakeWeather, type FakeWeather } from '../fixtures/fakeWeather.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

const PASSWORD = 'hunter2hunter2';

describe.skipIf(!HAS_CHROME)('functions', () => {
  let fake: FakeOpenAI;
  let weather: FakeWeather;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [fake, weather] = await Promise.all([startFakeOpenAI({ models: ['gpt-demo'] }), startFakeWeather()]);
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', GEOCODING_BASE_URL: weather.url, WEATHER_BASE_URL: weather.url }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([fake?.close(), weather?.close()]);
  });

  it('calls functions directly, opens redirects, and lets the model call get_weather', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    // No internet here: the redirect target is served by the test.
    await context.route('https://example.org/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Example</title><h1>Example</h1>' }));

    expect(await run(page, '!get_time({"timezone":"UTC"})')).toBe('Please login.');
    expect(await run(page, `:user add ada ada@example.org ${PASSWORD}`)).toBe('User ada added.Log in with :login ada <password>.');
    expect(await run(page, `:login ada ${PASSWORD}`)).toBe('Logged in as ada.');

    expect(await run(page, '!get_time({"timezone":"UTC"})')).toMatch(/^The current time in UTC is .* UTC\.$/);
    expect(await run(page, '!get_time')).toBe('Function invalid.');

    const opened = context.waitForEvent('page', { timeout: 10_000 });
    await run(page, '!redirect_to_url({"url":"https://example.org","blank":true})');
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe('https://example.org/');
    await tab.close();

    expect(await run(page, ':function use get_weather')).toBe('Function get_weather is in use.');
    fake.reply({ toolCalls: [{ name: 'get_weather', arguments: '{"location":"Paris"}' }] });
    fake.reply((req) => ({ text: `Paris now: ${String(req.body.messages.at(-1).content).split('\n')[0]!.split(': ')[1]}` }));
    await page.getByTestId('input').fill('What is the weather in Paris?');
    await page.getByTestId('submit').click();
    await expect.poll(async () => page.getByTestId('output').textContent(), { timeout: 10_000 }).toContain('Paris now: 12.3°C, partly cloudy, wind 9.7 km/h.');
    expect(fake.requests.at(-2)!.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['get_weather']);
    expect(weather.requests.some((u) => u.pathname === '/v1/forecast')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
