// Browser entry of the function plugin: the handlers, and the client of the local MCP helper
// (its address from system info `mcp_url`, else the spec's fixed local address).
import { definePluginModule, McpRef, PlatformRef } from '../../../src/core/index.ts';
import { createMcpClient } from './mcpClient.ts';
import { activateFunction } from '../common/index.ts';

export default definePluginModule({
  activate: (ctx) => {
    const url = ctx.services.maybe(PlatformRef)?.systemInfo().mcp_url;
    ctx.services.provide(McpRef, createMcpClient(url || undefined));
    activateFunction(ctx);
  },
});
