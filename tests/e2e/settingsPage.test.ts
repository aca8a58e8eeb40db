// The Settings page of spec part 2, as a visitor and then a user meet it: each installed plugin
// contributes its section, with its choices grouped (user, group, system, local), picks go
// through the plugin's own rules (three stores at most, with the spec's message), and each
// change says 'Settings updated.' with the time in the interface's language.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from './support.ts';

const PW = 'settings-page-password-1';

async function openSettings(page: Page): Promise<Locator> {
  await page.getByTestId('view-toggle').click();
  await page.getByTestId('nav-settings').click();
  const settings = page.getByTestId('page-settings');
  await settings.locator('button[data-setting=lang]').first().waitFor();
  return settings;
}

const headings = (settings: Locator) => settings.locator('section.setting h2').allTextContents();
const groupsOf = (settings: Locator, key: string) => settings.locator(`section.setting[aria-labelledby=setting-${key}] h3`).allTextContents();
const button = (settings: Locator, key: string, value: string) => settings.locator(`button[data-setting=${key}][data-value="${value}"]`);

describe.skipIf(!HAS_CHROME)('the Settings page', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-e2e' }));

  it('shows a visitor what a visitor may pick: theme, roles, functions, language', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const settings = await openSettings(page);
    await expect.poll(() => headings(settings)).toEqual(['Theme', 'Role', 'Functions', 'Language']);
    expect(await groupsOf(settings, 'role')).toEqual(['System roles']);
    // The MCP helper is not running: only the system's functions.
    expect(await groupsOf(settings, 'functions')).toEqual(['System functions']);
    expect(await settings.locator('button[data-setting=lang]').count()).toBe(28);
    // Several functions at once: a pick adds one, another pick of it removes it.
    await button(settings, 'functions', 'get_time').click();
    await button(settings, 'functions', 'get_weather').click();
    await expect.poll(() => button(settings, 'functions', 'get_weather').getAttribute('aria-pressed')).toBe('true');
    expect(await button(settings, 'functions', 'get_time').getAttribute('aria-pressed')).toBe('true');
    await button(settings, 'functions', 'get_time').click();
    await expect.poll(() => button(settings, 'functions', 'get_time').getAttribute('aria-pressed')).toBe('false');
    expect(await settings.locator('.settings-updated').textContent()).toMatch(/^Settings updated\. .+/);
    await button(settings, 'role', 'coder').click();
    await expect.poll(() => button(settings, 'role', 'coder').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('view-toggle').click();
    expect(await run(page, ':set all')).toContain('"functions": "get_weather"');
    expect(await run(page, ':role')).toContain('coder');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("gives a user every section, grouped, with the plugins' rules and the time in the interface's language", async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, `:user add setter setter@example.org ${PW}`)).toBe('User setter added.Log in with :login setter <password>.');
    expect(await run(page, `:login setter ${PW}`)).toBe('Logged in as setter.');
    expect(await run(page, ':role add "mine" "Answer in haiku."')).toContain('Role "mine" added.');
    for (const name of ['one', 'two', 'three', 'four']) expect(await run(page, `:store add "file" "${name}"`)).toContain(`Store \`${name}\` is created.`);
    expect(await run(page, ':store reset')).not.toBe('');
    expect(await run(page, ':node add "helper"')).toContain('Node "helper" added.');
    const settings = await openSettings(page);
    await expect.poll(() => headings(settings)).toEqual(['Theme', 'Model', 'Role', 'Functions', 'Data stores', 'Node', 'Language', 'E-mail updates']);
    expect(await groupsOf(settings, 'model')).toEqual(['System models']);
    expect(await groupsOf(settings, 'role')).toEqual(['User roles', 'System roles']);
    expect(await groupsOf(settings, 'stores')).toEqual(['User stores']);
    expect(await groupsOf(settings, 'node')).toEqual(['User nodes']);

    await button(settings, 'model', 'gpt-demo').click();
    await expect.poll(() => button(settings, 'model', 'gpt-demo').getAttribute('aria-pressed')).toBe('true');
    // Stores: three at most, with the spec's message; nothing is updated then.
    for (const name of ['one', 'two', 'three']) {
      await button(settings, 'stores', name).click();
      await expect.poll(() => button(settings, 'stores', name).getAttribute('aria-pressed')).toBe('true');
    }
    await button(settings, 'stores', 'four').click();
    await expect.poll(() => settings.locator('.settings-answer').textContent()).toBe('You can only use 3 stores at the same time. Please unuse one of them first.');
    expect(await settings.locator('.settings-updated').count()).toBe(0);
    expect(await button(settings, 'stores', 'four').getAttribute('aria-pressed')).toBe('false');
    await button(settings, 'stores', 'two').click();
    await button(settings, 'stores', 'four').click();
    await expect.poll(() => button(settings, 'stores', 'four').getAttribute('aria-pressed')).toBe('true');
    await button(settings, 'node', 'helper').click();
    await expect.poll(() => button(settings, 'node', 'helper').getAttribute('aria-pressed')).toBe('true');

    // E-mail updates: the account's subscription, from the server and back to it.
    expect(await button(settings, 'emailSubscription', 'on').getAttribute('aria-pressed')).toBe('true');
    await button(settings, 'emailSubscription', 'off').click();
    await expect.poll(() => settings.locator('.settings-answer').textContent()).toBe('Unsubscribed.');
    await expect.poll(() => button(settings, 'emailSubscription', 'off').getAttribute('aria-pressed')).toBe('true');

    // The time of 'Settings updated.' in the interface's language.
    await button(settings, 'lang', 'de-DE').click();
    await button(settings, 'theme', 'dark').click();
    await expect.poll(() => settings.locator('.settings-updated').textContent()).toMatch(/^Einstellungen aktualisiert\. \d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
    await button(settings, 'lang', 'en-US').click();

    await page.getByTestId('view-toggle').click();
    const all = JSON.parse(await run(page, ':set all')) as Record<string, unknown>;
    expect(all).toMatchObject({ model: 'gpt-demo', stores: 'one,three,four', theme: 'dark' });
    expect(await run(page, ':node')).toContain('helper');
    expect(errors).toEqual([]);
    await context.close();
  });
});
