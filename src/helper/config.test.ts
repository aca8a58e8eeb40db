import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_ALLOWED_ORIGINS,
  DEFAULT_HELPER_PORT,
  parseOptions,
  parseServersConfig,
  secretValues,
} from './config.ts';

describe('helper options', () => {
  it('defaults to port 11318, the local app origins and a 60 s call timeout', () => {
    const options = parseOptions([], {});
    expect(options).not.toBe('help');
    if (options === 'help') return;
    expect(options.port).toBe(DEFAULT_HELPER_PORT);
    expect(options.port).toBe(11318);
    expect(options.allowedOrigins).toEqual(DEFAULT_ALLOWED_ORIGINS);
    expect(options.callTimeoutMs).toBe(60_000);
    expect(options.configPath).toMatch(/\.shellchat[/\\]mcp\.json$/);
  });

  it('reads flags before the environment, normalizing origins', () => {
    const options = parseOptions(['--port', '4000', '--origin', 'https://Chat.Example/', '--origin', 'http://localhost:5173', '--config', '/x.json'], {
      MCP_ALLOWED_ORIGINS: 'https://other.example',
      MCP_CONFIG: '/y.json',
    });
    if (options === 'help') throw new Error('unexpected');
    expect(options).toMatchObject({ port: 4000, configPath: '/x.json', allowedOrigins: ['https://chat.example', 'http://localhost:5173'] });
    const fromEnv = parseOptions([], { MCP_ALLOWED_ORIGINS: 'https://a.example, https://b.example', MCP_CONFIG: '/y.json' });
    if (fromEnv === 'help') throw new Error('unexpected');
    expect(fromEnv.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(fromEnv.configPath).toBe('/y.json');
  });

  it('rejects a bad port, a bad origin and an unknown flag', () => {
    expect(() => parseOptions(['--port', 'abc'], {})).toThrow(ConfigError);
    expect(() => parseOptions(['--origin', 'ftp://x'], {})).toThrow(/origin/);
    expect(() => parseOptions(['--bogus'], {})).toThrow(ConfigError);
    expect(parseOptions(['--help'], {})).toBe('help');
  });
});

describe('mcpServers config', () => {
  it('parses stdio and streamable HTTP servers', () => {
    const config = parseServersConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: 'mcp-server-filesystem', args: ['/tmp'], env: { API_TOKEN: 's3cret' } },
          remote: { url: 'http://127.0.0.1:9999/mcp', headers: { Authorization: 'Bearer abcdef' } },
          off: { command: 'x', disabled: true },
        },
      }),
    );
    expect(config).toEqual({
      files: { kind: 'stdio', command: 'mcp-server-filesystem', args: ['/tmp'], env: { API_TOKEN: 's3cret' } },
      remote: { kind: 'http', url: 'http://127.0.0.1:9999/mcp', headers: { Authorization: 'Bearer abcdef' } },
    });
    expect(secretValues(config)).toEqual(['s3cret', 'Bearer abcdef']);
    expect(parseServersConfig('')).toEqual({});
    expect(parseServersConfig('{}')).toEqual({});
  });

  it('gives clear errors that never quote a secret value', () => {
    expect(() => parseServersConfig('{nope', 'mcp.json')).toThrow(/mcp\.json: not valid JSON/);
    expect(() => parseServersConfig('{"mcpServers": []}')).toThrow(/"mcpServers" must be an object/);
    expect(() => parseServersConfig('{"mcpServers": {"a": {}}}')).toThrow(/mcpServers\.a needs either "command".*or "url"/);
    expect(() => parseServersConfig('{"mcpServers": {"a": {"command": "x", "args": "y"}}}')).toThrow(/args must be an array/);
    expect(() => parseServersConfig('{"mcpServers": {"a": {"url": "file:///etc"}}}')).toThrow(/http\(s\)/);
    let message = '';
    try {
      parseServersConfig('{"mcpServers": {"a": {"command": "x", "env": {"T": "s3cret", "N": 5}}}}');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/mcpServers\.a\.env\.N must be a string/);
    expect(message).not.toContain('s3cret');
  });
});
