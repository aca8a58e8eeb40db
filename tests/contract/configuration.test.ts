// One source for the configuration (issue 21): docs/configuration.md is what the environment's
// schema says, and the server reads no variable the schema does not declare. That a wrong value
// stops the server naming the variable is tests/server/configurationStart.test.ts (it starts one).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { configurationDoc, envSchema } from '../../src/server/env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

describe('configuration', () => {
  it('docs/configuration.md is generated from the schema (npm run docs:config)', () => {
    expect(readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8')).toBe(configurationDoc());
  });

  it('the server and its plugins read the environment only through the schema', () => {
    const readers = [...sources(path.join(ROOT, 'src/server')), ...sources(path.join(ROOT, 'plugins'))]
      // env.ts declares, config.ts parses (its default argument is process.env), main.ts starts.
      .filter((file) => !['env.ts', 'config.ts', 'main.ts'].some((name) => file.endsWith(path.join('src', 'server', name))))
      .filter((file) => /process\.env/.test(readFileSync(file, 'utf8')));
    expect(readers.map((f) => path.relative(ROOT, f))).toEqual([]);
    // Every variable has a default shown and a meaning.
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const meta = schema.meta() as { shownDefault?: string; description?: string } | undefined;
      expect(meta?.description, name).toBeTruthy();
      expect(typeof meta?.shownDefault, name).toBe('string');
    }
  });

  // Issue 35: a plugin declares its own variables (plugins/<id>/server/env.ts); the server's
  // schema merges them, so they are checked and documented like the server's, and the plugin
  // alone gets what it makes of them.
  it("a plugin's own variables are the server's to check, and the plugin's to read", () => {
    expect(Object.keys(envSchema.shape)).toEqual(expect.arrayContaining(['WEATHER_BASE_URL', 'WOLFRAM_APP_ID']));
    expect(() => loadConfig({ WEATHER_BASE_URL: 'ftp://weather' }, ROOT)).toThrow('WEATHER_BASE_URL must be an http(s) URL, got ftp://weather');
    const config = loadConfig({ WEATHER_BASE_URL: 'http://weather.test/', DATA_DIR: path.join(ROOT, '.tmp', 'config-test') }, ROOT);
    expect(config.plugins.function).toMatchObject({ weatherBaseUrl: 'http://weather.test', wolframAppId: '' });
    expect(config).not.toHaveProperty('functions');
  });
});
