// An MCP tool call end to end: the fake provider asks for an MCP tool, the browser runs it
// through the real local helper (connected to a real MCP server over streamable HTTP), sends
// the turn again with the result, and the final answer uses it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startHelper, type Helper } from '../../src/helper/start.ts';
import { startHttpMcpServer } from '../../src/helper/testing.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { freePort, HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

describe.skipIf(!HAS_CHROME)('MCP tools through the local helper', () => {
  let fake: FakeOpenAI;
  let mcpServer: Awaited<ReturnType<typeof startHttpMcpServer>>;
  let helper: Helper;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    mcpServer = await startHttpMcpServer();
    const appPort = await freePort();
    const helperPort = await freePort();
    const config = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-mcp-')), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { calc: { url: mcpServer.url } } }));
    helper = await startHelper({ configPath: config, port: helperPort, allowedOrigins: [`http://127.0.0.1:${appPort}`], callTimeoutMs: 10_000 });
    [server, browser] = await Promise.all([
      startServer({ PORT: String(appPort), MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, MCP_HELPER_URL: `http://127.0.0.1:${helperPort}` }),
      launchBrowser(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await helper?.close();
    await mcpServer?.close();
    await fake?.close();
  });

  it('lists the MCP tools, runs the one the model asks for, and answers with its result', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, ':user add mcpuser mcp@example.org correct-horse-1');
    await run(page, ':login mcpuser correct-horse-1');
    await expect.poll(() => run(page, ':function ls'), { timeout: 10_000 }).toContain('add');
    expect(await run(page, ':function use add')).not.toMatch(/not found/i);
    fake.reply({ toolCalls: [{ id: 'call_add', name: 'add', arguments: '{"a":2,"b":40}' }] });
    fake.reply((req) => ({ text: `The helper says ${req.body.messages.at(-1).content}.` }));
    await run(page, 'What is 2 + 40?');
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 10_000 }).toContain('The helper says 42.');
    const first = fake.requests.at(-2)!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('add');
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_add', content: '42' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
