#!/usr/bin/env node
// shellchat-mcp: the local MCP helper (spec part 7, "Local helpers").
//
//   npx shellchat-mcp [--config ~/.shellchat/mcp.json] [--port 11318] [--origin https://chat.example]...
//   npm run mcp -- --origin http://localhost:5173
//
// It listens on 127.0.0.1:<port> only and bridges the browser to the MCP servers in the config
// file, which uses the common format and is reloaded when it changes:
//   { "mcpServers": {
//       "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] },
//       "files": { "command": "mcp-server-filesystem", "args": ["/home/me/notes"], "env": { "TOKEN": "..." } },
//       "remote": { "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer ..." } } } }
// Endpoints: GET / ('Simple MCP is running.'), GET /tool/list, POST /tool/call {tool, args} (60 s).
// Only pages on the --origin app origins (default http://localhost:3000, http://127.0.0.1:3000;
// env MCP_ALLOWED_ORIGINS) may call it; other origins and DNS-rebinding Hosts get 403.
// Env values and headers stay in the helper. Logs go to stderr.
import { ConfigError, USAGE, parseOptions } from './config.ts';
import { describeServers, startHelper } from './start.ts';

const log = (line: string): void => {
  process.stderr.write(`shellchat-mcp: ${line}\n`);
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const helper = await startHelper(options, { log });
  log(`listening on ${helper.url} for ${options.allowedOrigins.join(', ')}`);
  log(`config ${options.configPath}: ${describeServers(helper.hub)}`);
  const tools = helper.hub.tools().map((tool) => tool.name);
  log(`tools: ${tools.length > 0 ? tools.join(', ') : 'none'}`);
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    log('closing');
    void helper.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : (error as Error).message;
  log(`error: ${message}`);
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') log('the port is taken; is another helper running?');
  process.exit(1);
});
